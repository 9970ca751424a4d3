"""The console's ASGI application: every page's routes, the static files, the security headers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from memoryd.facades.console.pages import account, admin, graph, jobs, memories, overview, profiles, recall, reviews
from memoryd.facades.console.web import Console, HostCheck, SecurityHeaders

PAGES = (account, overview, memories, recall, reviews, jobs, profiles, graph, admin)


def build(console: Console) -> Starlette:
    """The application serving ``console``'s pages (the daemon's channel closes with it)."""

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        console.daemon.connect()
        yield
        await console.daemon.close()

    static = StaticFiles(directory=str(resources.files("memoryd.facades.console") / "static"))
    routes = [route for module in PAGES for route in module.routes(console)]
    app = Starlette(routes=[*routes, Mount("/static", static, name="static")], lifespan=lifespan)
    app.add_middleware(HostCheck, hosts=console.hosts)  # before any page
    app.add_middleware(SecurityHeaders)  # added last: outermost, so a refused Host's answer has them too
    return app
