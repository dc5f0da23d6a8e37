"""The session engine: Django's database sessions, noting which account each one is signed in to.

Deleting an account must end every session it is signed in on, and a session's data is encoded,
so the account cannot be looked up in it. Every save of a signed-in session therefore notes the
pair in :class:`~accounts.models.SessionOwner`. Saving is the one place every sign-in passes
through: the sign-in page, the admin's, a new session key after a password change, and tests'
``force_login``. The sessions themselves stay in Django's own table.
"""

from asgiref.sync import sync_to_async
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import router, transaction

from accounts.models import SessionOwner

_KEY_CHARS = frozenset(VALID_KEY_CHARS)


class SessionStore(DatabaseSessionStore):
    """Django's database session store; see the module docstring."""

    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._noted: tuple[str, object] | None = None

    def save(self, must_create: bool = False) -> None:
        if self.session_key is None:
            self.create()  # which saves again, with a key
            return
        with transaction.atomic(using=router.db_for_write(self.model)):
            super().save(must_create=must_create)
            self._note_owner()

    def _validate_session_key(self, key: str | None) -> bool:
        """Django's rule (at least 8 characters), and only the characters Django makes keys of.

        A cookie's key that could never have been issued is no session, before any query: a
        cookie may carry a NUL byte (quoted, ``"…\\000…"``), and PostgreSQL refused it in the
        session's lookup, a 500 on every page and a failed handshake on every socket.
        """
        return key is not None and len(key) >= 8 and set(key) <= _KEY_CHARS

    async def asave(self, must_create: bool = False) -> None:
        await sync_to_async(self.save)(must_create=must_create)

    def _note_owner(self) -> None:
        raw_user_id = self.get(SESSION_KEY)
        key = self.session_key
        if raw_user_id is None or key is None:
            return
        user_model = get_user_model()
        user_id = user_model._meta.pk.to_python(raw_user_id)
        if self._noted == (key, user_id):
            return
        # A session can outlive its account when staff delete the user: note nothing then.
        if user_model._default_manager.filter(pk=user_id).exists():
            SessionOwner.objects.bulk_create(
                [SessionOwner(session_id=key, user_id=user_id)], ignore_conflicts=True
            )
        self._noted = (key, user_id)
