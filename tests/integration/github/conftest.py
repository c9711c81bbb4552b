"""Fixtures of the GitHub layer's tests: the shared fixtures folder and the fake REST API."""

from __future__ import annotations

from github_fake import fake_clock, fake_github, github_fixtures, make_client

__all__ = ["fake_clock", "fake_github", "github_fixtures", "make_client"]
