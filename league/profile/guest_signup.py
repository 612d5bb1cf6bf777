"""`/accounts/signup/` for everyone, guests included: allauth's sign-up page.

allauth sends anyone logged in away from its sign-up page, and a guest is logged in; yet signing
up is exactly what a guest should do to keep their games. So a guest is let through to the same
form (its rate limit kept), and the adapter turns their own account row into the new account
(league.profile.adapter: `new_user`, `save_user`). Everyone else gets allauth's view unchanged.
"""

from __future__ import annotations

from typing import Any

from allauth.account.mixins import CloseableSignupMixin
from allauth.account.views import SignupView
from allauth.decorators import rate_limit
from django.http import HttpRequest, HttpResponseBase
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from accounts.guests import is_guest


class GuestSignupView(SignupView):
    """allauth's sign-up; a guest skips only the redirect of the logged-in."""

    @method_decorator(rate_limit(action="signup"))
    @method_decorator(sensitive_post_parameters("password1", "password2"))
    @method_decorator(never_cache)
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if is_guest(request.user):
            # Past RedirectAuthenticatedUserMixin, on along the rest of allauth's chain.
            return CloseableSignupMixin.dispatch(self, request, *args, **kwargs)
        return super().dispatch(request, *args, **kwargs)


signup = GuestSignupView.as_view()
