"""The league pages' forms, one module per area of `league.pages` (events, people, result entry,
schedule and notices): forms check what a person typed; the services decide."""
