"""Matches and their hands: starting a match, the sheet's pages, entering, correcting, deleting
and undoing hands, the history, the statistics, the chart and the exports."""
