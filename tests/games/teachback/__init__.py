"""Teach-back: the sentences, hints, assessment and rubric."""
