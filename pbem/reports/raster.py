"""Draw an SVG as a PNG: the child process behind pbem.reports.render.svg_to_png.

    python -I raster.py WIDTH  <  drawing.svg  >  drawing.png

libvips (the `pyvips[binary]` wheel) draws the SVG with librsvg, the library behind
`rsvg-convert`, at WIDTH pixels wide and the height that keeps its proportions.  It runs in
a process of its own so that a timeout can end it and a crash in C code ends only it.  The
SVG comes on stdin with no file name and no base URL, so nothing outside it can be loaded.
This file is run by path and imports nothing of pbem (a quick start).
"""
import sys

MAX_WIDTH = 4000


def main() -> int:
    try:
        width = int(sys.argv[1])
    except (IndexError, ValueError):
        width = 0
    if not 0 < width <= MAX_WIDTH:
        print(f"usage: raster.py WIDTH (1 to {MAX_WIDTH}) < drawing.svg > drawing.png", file=sys.stderr)
        return 2
    import pyvips

    svg = sys.stdin.buffer.read()
    # Thumbnailing an SVG draws it at the size asked for (a vector, not a resampled bitmap).
    image = pyvips.Image.thumbnail_buffer(svg, width, height=MAX_WIDTH * 10, size="both")
    sys.stdout.buffer.write(image.pngsave_buffer())
    return 0


if __name__ == "__main__":
    sys.exit(main())
