// A recording of N operations over N/8 textures for the big-input figures (scripts/big-inputs.sh,
// issue 16 item 3): lists of 100 operations, alternately a draw (render target + a sampled texture)
// and a dispatch (unordered access + a sampled texture), resources drawn by a fixed-seed generator.
//
//   gen_recording N > recording.json
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

int main(int argc, char** argv) {
  const unsigned long n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
  const unsigned long r = n / 8 > 8 ? n / 8 : 8;
  std::mt19937_64 rng(1);
  std::string out = R"({"resources":[)";
  for (unsigned long i = 0; i < r; ++i)
    out += (i ? "," : "") + std::string(R"({"name":"t)") + std::to_string(i) +
           R"(","type":"texture","width":256,"height":256,"usage":["render_target","shader_resource","unordered_access"]})";
  out += R"(],"groups":[{"name":"g","queue":"direct","lists":[)";
  for (unsigned long k = 0; k < n; ++k) {
    if (k % 100 == 0) out += (k ? "]}," : "") + std::string(R"({"name":"l)") + std::to_string(k / 100) + R"(","ops":[)";
    else out += ",";
    const unsigned long a = rng() % r, b0 = rng() % r, b = b0 == a ? (a + 1) % r : b0;
    const std::string ta = "t" + std::to_string(a), tb = "t" + std::to_string(b);
    if (k % 2)
      out += R"({"kind":"draw","uses":[{"resource":")" + ta + R"(","access":"render_target"},{"resource":")" + tb +
             R"(","access":"shader_resource","stages":"pixel"}]})";
    else
      out += R"({"kind":"dispatch","uses":[{"resource":")" + ta +
             R"(","access":"unordered_access","stages":"compute"},{"resource":")" + tb +
             R"(","access":"shader_resource","stages":"compute"}]})";
  }
  out += n ? "]}]}]}\n" : "]}]}\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}
