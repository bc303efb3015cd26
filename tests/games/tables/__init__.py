"""Tables: starting them, seating, who may play, device pages and bad input."""
