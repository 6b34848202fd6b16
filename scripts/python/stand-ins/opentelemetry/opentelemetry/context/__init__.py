"""The context calls the Pulumi SDK makes on every resource: a context that is always empty."""

from typing import Any, Dict


class Context(Dict[str, Any]):
    pass


_EMPTY = Context()


def get_current() -> Context:
    return _EMPTY


def attach(context: Context) -> object:
    return object()


def detach(token: object) -> None:
    return None
