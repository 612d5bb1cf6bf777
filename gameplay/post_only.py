"""Form actions that a person may still open as a page: a reload, a shared or typed address.

A POST-only address answers a GET with an empty 405 that a person cannot act on; these send
them back to the page that offers the form instead. Other methods are still refused (405).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.urls import reverse


def post_form(back: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Run the view on POST; on GET or HEAD redirect to the URL named `back` (its form)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return redirect(reverse(back))
            if request.method != "POST":
                return HttpResponseNotAllowed(["POST"])
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
