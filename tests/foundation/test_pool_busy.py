"""A request that finds the connection pool full is told to retry (503), never a 500."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import RequestFactory
from psycopg_pool import PoolTimeout

from config.busy import PoolBusyMiddleware, is_pool_timeout


def _wrapped_pool_timeout() -> OperationalError:
    """What Django raises when `pool.getconn()` times out: its wrapper, caused by the pool's."""
    try:
        try:
            raise PoolTimeout("couldn't get a connection after 10.00 sec")
        except PoolTimeout as cause:
            raise OperationalError(str(cause)) from cause
    except OperationalError as exc:
        return exc


def test_a_pool_timeout_is_a_503_with_retry_after():
    middleware = PoolBusyMiddleware(lambda request: None)
    response = middleware.process_exception(RequestFactory().get("/"), _wrapped_pool_timeout())
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0


@pytest.mark.parametrize(
    "exc", [OperationalError("server closed the connection"), ValueError("other")]
)
def test_other_errors_are_left_alone(exc):
    assert not is_pool_timeout(exc)
    assert (
        PoolBusyMiddleware(lambda request: None).process_exception(RequestFactory().get("/"), exc)
        is None
    )
