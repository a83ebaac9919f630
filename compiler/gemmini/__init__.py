"""The Gemmini backend: empty; filled by the Gemmini compiler issue."""
