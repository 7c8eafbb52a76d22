"""The tea tally (çay defteri): the drinks a table orders while it plays, and who pays them."""
