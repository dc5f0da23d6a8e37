"""The ``isodate`` path converter: a day written as ``2026-11-30``, in page and websocket URLs."""

from datetime import date

from django.urls import register_converter


class IsoDateConverter:
    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> date:
        return date.fromisoformat(value)  # a ValueError (2026-02-30) makes the URL not match

    def to_url(self, value: date | str) -> str:
        return value.isoformat() if isinstance(value, date) else value


register_converter(IsoDateConverter, "isodate")
