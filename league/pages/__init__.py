"""The league's HTML pages, one module per area (their URLs in `league/urls.py`, their forms in
`league.forms` under the same area names): so a page is found by what it is about, not in a flat
row of `views_*` modules."""
