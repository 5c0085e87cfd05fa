"""What an embedded copy of the page needs beyond the tabs: access, fit, theme, and its snippet."""
