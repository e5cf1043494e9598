"""The web front end of ``d4cli serve``: an ASGI app (Starlette) over `d4cli.api`, like the CLI.

`app.make_app` builds it: the read routes (the page, ``/view.json``, ``/events``, the page's
assets), `guard.Guard` around everything (the served Host only, the security headers on every
answer, the body limit), one `broadcast.Broadcaster` that reads each change once and sends the
same bytes to every stream, and `writes` (the Origin, Content-Type and rate checks a write route
runs). The command (`d4cli.cli.web_server`) binds the socket and runs uvicorn.
"""
