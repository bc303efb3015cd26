"""BotBench as an LTI 1.3 Advantage tool (issue 37). The protocol (OIDC login, id_token
signature and claims, deep-linking response JWT) is pylti1p3's, through django-lti's key model;
this package is the glue: where platforms and login state are stored, and what a launch means
for BotBench's classes, teachers and students."""
