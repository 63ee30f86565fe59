"""End-to-end tests through the fake Discord."""
