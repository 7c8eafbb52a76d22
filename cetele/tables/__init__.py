"""Tables (masa): a table's players and matches, its season's statistics, rematches."""
