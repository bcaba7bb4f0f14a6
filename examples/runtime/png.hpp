// A minimal PNG writer and reader for the sample's 8-bit RGBA images: zlib "stored" (uncompressed)
// deflate blocks, CRC-32 per chunk, Adler-32 over the image data, filter 0 on every row. The
// reader accepts exactly what the writer produces (the checked-in reference), nothing more.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sample {

struct Image {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes, rows top to bottom
};

bool write_png(const std::string& path, const Image& image);
// Empty `error` on success.
Image read_png(const std::string& path, std::string& error);

}  // namespace sample
