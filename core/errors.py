"""Errors a service raises for the user: the message is already in the user's language."""

from __future__ import annotations


class ServiceError(Exception):
    """A refused use case. ``message`` is shown to the user as is; nothing was changed."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleState(ServiceError):
    """Someone acted first: the form or page the user acted from is out of date."""

    status = 409


class PermissionRefused(ServiceError):
    status = 403
