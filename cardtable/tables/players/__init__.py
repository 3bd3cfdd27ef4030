"""Who a visitor is, what they may be called, and how much they may do."""
