"""The shared parse step of the two importers (games/common/jsonsafe.py): the bounds first, then the
format's strict model, any refusal raised as the importer's own exception."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, field_validator

from games.common import jsonsafe


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.code, self.message = code, message


class Doc(BaseModel):
    kind: str
    count: int

    @field_validator("kind")
    @classmethod
    def _known(cls, kind: str) -> str:
        if kind != "okey":
            raise jsonsafe.refusal("bad_kind", f"unknown kind {kind!r}")
        return kind


def explain(error) -> tuple[str, str]:
    return "bad_field", f"{error['loc'][0]} is damaged"


def parse(raw: bytes) -> Doc:
    data = jsonsafe.load_object(
        raw, max_bytes=200, max_depth=2, max_values=20, max_string=20, refused=Refused
    )
    return jsonsafe.validate(Doc, data, explain=explain, refused=Refused)


def refused(raw: bytes) -> tuple[str, str]:
    with pytest.raises(Refused) as info:
        parse(raw)
    return info.value.code, info.value.message


def test_a_valid_document_is_read_into_its_model():
    assert parse(b'{"kind": "okey", "count": 3, "extra": 1}') == Doc(kind="okey", count=3)


def test_the_bounds_come_first_with_their_codes():
    assert refused(b"[" * 50 + b"]" * 50)[0] == "too_deep"
    assert refused(b" " * 201)[0] == "too_large"
    assert refused(b"\xff\xfe")[0] == "bad_json"  # not UTF-8: not a JSON file either
    code, message = refused(b'{"kind": "okey", "count": NaN}')
    assert code == "bad_json" and "not valid JSON" in message


def test_a_validators_refusal_keeps_its_code_and_message():
    assert refused(b'{"kind": "chess", "count": 3}') == ("bad_kind", "unknown kind 'chess'")


def test_the_first_error_in_field_order_is_the_one_told():
    assert refused(b'{"kind": 5, "count": "x"}') == ("bad_field", "kind is damaged")
    assert refused(b'{"kind": "okey"}') == ("bad_field", "count is damaged")


def test_the_model_is_strict():
    assert refused(b'{"kind": "okey", "count": "3"}') == ("bad_field", "count is damaged")
    assert refused(b'{"kind": "okey", "count": true}') == ("bad_field", "count is damaged")
    assert refused(b'{"kind": "okey", "count": 3.0}') == ("bad_field", "count is damaged")
