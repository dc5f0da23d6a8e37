"""The embedded default's database (SQLite) with several writers at once: a transaction that reads
and then writes, while another transaction writes, waits for its turn instead of failing as
"database is locked" (the way races and the analysis loop met in CI)."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's locking"),
]


def test_a_transaction_that_reads_then_writes_waits_for_another_writer() -> None:
    User = get_user_model()
    writing, read = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def writer() -> None:
        """Writes, then holds its transaction open until the other has read (or a second)."""
        try:
            with transaction.atomic():
                User.objects.create_user("first", password="x")
                writing.set()
                read.wait(1)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    def reader_then_writer() -> None:
        try:
            writing.wait(5)
            with transaction.atomic():
                User.objects.count()
                read.set()
                User.objects.create_user("second", password="x")
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer), threading.Thread(target=reader_then_writer)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert set(User.objects.values_list("username", flat=True)) == {"first", "second"}
