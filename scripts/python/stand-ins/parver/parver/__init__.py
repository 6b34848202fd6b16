"""Stand-in for parver (see ../pyproject.toml): the attributes a generated SDK's _utilities.py reads."""

from typing import Optional, Tuple

from packaging.version import Version as _Packaging

_TAGS = {"a": "a", "b": "b", "rc": "rc"}


class Version:
    def __init__(self, parsed: _Packaging) -> None:
        self._parsed = parsed

    @classmethod
    def parse(cls, version: str) -> "Version":
        return cls(_Packaging(version))

    @property
    def release(self) -> Tuple[int, ...]:
        return self._parsed.release

    @property
    def pre_tag(self) -> Optional[str]:
        return _TAGS[self._parsed.pre[0]] if self._parsed.pre else None

    @property
    def pre(self) -> Optional[int]:
        return self._parsed.pre[1] if self._parsed.pre else None

    @property
    def dev(self) -> Optional[int]:
        return self._parsed.dev

    @property
    def local(self) -> Optional[str]:
        return self._parsed.local

    def __str__(self) -> str:
        return str(self._parsed)
