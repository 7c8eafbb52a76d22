"""Your data, your call: deleting a match, a table or a house preset, and forgetting what
nobody uses."""
