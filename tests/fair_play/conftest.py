"""The ratings tests' personas and tables (tests/ratings/conftest.py)."""

from tests.ratings.conftest import friendly, users  # noqa: F401
