"""Bundled files (fonts, icon): a package so that importlib.resources.files("assets") finds them, frozen or not."""
