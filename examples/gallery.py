#!/usr/bin/env python3
"""Copies a pdex PNG into docs/gallery, small: gallery.py SRC.png DST.png [--half]

--half averages 2x2 pixel blocks (for 512x512 runs). The picture is stored with a palette when it
has at most 256 colours (pdex's colormaps are 256-entry tables), which makes it about three times
smaller than pdex's RGB file. Standard library only."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG file')
    pos, idat = 8, b''
    while pos < len(data):
        n, = struct.unpack('>I', data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                sys.exit(f'{path}: expected an 8-bit RGB(A) PNG without interlacing, as pdex writes')
        elif kind == b'IDAT':
            idat += body
    ch = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * ch
    rows, prev, p = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[p], bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append([tuple(line[k * ch:k * ch + 3]) for k in range(w)])
    return w, h, rows


def half(w, h, rows):
    out = []
    for y in range(0, h - 1, 2):
        r0, r1 = rows[y], rows[y + 1]
        out.append([tuple((r0[x][c] + r0[x + 1][c] + r1[x][c] + r1[x + 1][c] + 2) // 4 for c in range(3))
                    for x in range(0, w - 1, 2)])
    return w // 2, h // 2, out


def chunk(kind, body):
    return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body) & 0xffffffff)


def write_png(path, w, h, rows):
    colours = sorted({px for row in rows for px in row})
    if len(colours) <= 256:
        index = {c: i for i, c in enumerate(colours)}
        raw = b''.join(b'\x00' + bytes(index[px] for px in row) for row in rows)
        header = struct.pack('>IIBBBBB', w, h, 8, 3, 0, 0, 0)
        extra = chunk(b'PLTE', b''.join(bytes(c) for c in colours))
    else:
        raw = b''.join(b'\x00' + bytes(v for px in row for v in px) for row in rows)
        header = struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)
        extra = b''
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + extra +
                chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))


if __name__ == '__main__':
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != '--half'):
        sys.exit(__doc__)
    image = read_png(sys.argv[1])
    if len(sys.argv) == 4:
        image = half(*image)
    write_png(sys.argv[2], *image)
