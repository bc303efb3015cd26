"""A real LTI 1.3 platform (a stand-in for Canvas, Moodle, Schoology...) for the tests.

Built on the `lti1p3platform` package: the OIDC login initiation, the id_token launch and
deep-linking messages, their signing, the access tokens and the NRPS and AGS service endpoints
are the library's (`library.py` fills in its abstract classes). This package adds only what a
learning platform keeps: its courses, people, activities, line items and the scores that arrive
(`store.py`), the pages a browser visits (`app.py`) and a uvicorn server in a thread
(`server.py`), on http://127.0.0.1:<port> beside the tool's http://localhost:<port>, another
site, so the iframe launch is really cross-site."""
