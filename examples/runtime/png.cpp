#include "png.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

namespace sample {
namespace {

constexpr uint8_t kSignature[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
constexpr size_t kMaxStored = 65535;  // bytes per stored deflate block

uint32_t crc32(const uint8_t* p, size_t n, uint32_t crc = 0) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1u ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xFFu] ^ (crc >> 8);
  return ~crc;
}

uint32_t adler32(const std::vector<uint8_t>& d) {
  uint32_t a = 1, b = 0;
  for (uint8_t x : d) {
    a = (a + x) % 65521u;
    b = (b + a) % 65521u;
  }
  return b << 16 | a;
}

void put32(std::vector<uint8_t>& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<uint8_t>(v >> s));
}
uint32_t get32(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}

void chunk(std::vector<uint8_t>& out, const char* type, const std::vector<uint8_t>& data) {
  put32(out, static_cast<uint32_t>(data.size()));
  const size_t start = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  put32(out, crc32(out.data() + start, out.size() - start));
}

}  // namespace

bool write_png(const std::string& path, const Image& image) {
  // Raw scanlines: a filter byte (0, none) then the row.
  std::vector<uint8_t> raw;
  const size_t row = size_t{image.width} * 4;
  for (uint32_t y = 0; y < image.height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), image.rgba.begin() + static_cast<std::ptrdiff_t>(y * row),
               image.rgba.begin() + static_cast<std::ptrdiff_t>((y + 1) * row));
  }
  // zlib stream: header (deflate, 32K window, no dictionary), stored blocks, Adler-32.
  std::vector<uint8_t> z{0x78, 0x01};
  for (size_t at = 0; at < raw.size(); at += kMaxStored) {
    const size_t n = std::min(kMaxStored, raw.size() - at);
    z.push_back(at + n == raw.size() ? 1 : 0);  // BFINAL, BTYPE 00
    z.push_back(static_cast<uint8_t>(n));
    z.push_back(static_cast<uint8_t>(n >> 8));
    z.push_back(static_cast<uint8_t>(~n));
    z.push_back(static_cast<uint8_t>(~n >> 8));
    z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(at),
             raw.begin() + static_cast<std::ptrdiff_t>(at + n));
  }
  put32(z, adler32(raw));

  std::vector<uint8_t> out(std::begin(kSignature), std::end(kSignature));
  std::vector<uint8_t> ihdr;
  put32(ihdr, image.width);
  put32(ihdr, image.height);
  ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0});  // 8 bits, RGBA, deflate, filter method 0, no interlace
  chunk(out, "IHDR", ihdr);
  chunk(out, "IDAT", z);
  chunk(out, "IEND", {});
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
  return static_cast<bool>(f);
}

Image read_png(const std::string& path, std::string& error) {
  Image image;
  std::ifstream f(path, std::ios::binary);
  const std::vector<uint8_t> in((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto fail = [&](const char* what) {
    error = path + ": " + what;
    return Image{};
  };
  if (in.size() < 8 || std::memcmp(in.data(), kSignature, 8) != 0) return fail("not a PNG file");
  std::vector<uint8_t> z;
  for (size_t at = 8; at + 12 <= in.size();) {
    const uint32_t n = get32(&in[at]);
    if (at + 12 + n > in.size()) return fail("truncated chunk");
    const uint8_t* type = &in[at + 4];
    const uint8_t* data = &in[at + 8];
    if (crc32(type, n + 4) != get32(data + n)) return fail("chunk CRC mismatch");
    if (std::memcmp(type, "IHDR", 4) == 0) {
      if (n != 13 || data[8] != 8 || data[9] != 6 || data[12] != 0)
        return fail("not 8-bit RGBA, non-interlaced");
      image.width = get32(data);
      image.height = get32(data + 4);
    } else if (std::memcmp(type, "IDAT", 4) == 0) {
      z.insert(z.end(), data, data + n);
    }
    at += 12 + n;
  }
  if (z.size() < 6 || (z[0] & 0x0F) != 8) return fail("no zlib image data");
  std::vector<uint8_t> raw;
  size_t at = 2;
  for (bool last = false; !last;) {
    if (at + 5 > z.size()) return fail("truncated deflate stream");
    last = z[at] & 1u;
    if ((z[at] >> 1 & 3u) != 0) return fail("compressed deflate block (only stored blocks are read)");
    const size_t n = z[at + 1] | size_t{z[at + 2]} << 8;
    if (at + 5 + n > z.size()) return fail("truncated stored block");
    raw.insert(raw.end(), z.begin() + static_cast<std::ptrdiff_t>(at + 5),
               z.begin() + static_cast<std::ptrdiff_t>(at + 5 + n));
    at += 5 + n;
  }
  if (at + 4 > z.size() || get32(&z[at]) != adler32(raw)) return fail("Adler-32 mismatch");
  const size_t row = size_t{image.width} * 4;
  if (raw.size() != (row + 1) * image.height) return fail("wrong image data size");
  image.rgba.reserve(row * image.height);
  for (uint32_t y = 0; y < image.height; ++y) {
    if (raw[y * (row + 1)] != 0) return fail("row filter other than 0");
    const auto b = raw.begin() + static_cast<std::ptrdiff_t>(y * (row + 1) + 1);
    image.rgba.insert(image.rgba.end(), b, b + static_cast<std::ptrdiff_t>(row));
  }
  return image;
}

}  // namespace sample
