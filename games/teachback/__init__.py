"""The Bot-Builders teach-back: the team's sentence, the class rubric, the teacher's assessment and
the projector spotlight. Pure hint rules in `hints`, rubric versions in `rubrics`, writes in
`services`, reads in `selectors`, permissions in `access`."""
