from .tiles import deal, format_tiles, notation, parse_tiles

__all__ = ["deal", "format_tiles", "notation", "parse_tiles"]
