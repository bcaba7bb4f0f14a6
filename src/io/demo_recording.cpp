// The built-in demo: one frame of a deferred renderer, recorded the way an engine would record
// it (commands with their bindings; the recorder merges and splits operations). examples/demo.json
// is this recording written out by save_recording, and a test keeps the two identical.
#include "baton/recording.hpp"

namespace baton {
namespace {

constexpr uint32_t kWidth = 1920, kHeight = 1080;
constexpr uint32_t kBloomMips = 5;

// Bindings read like the declarations of a pass: what, how, in which stages, which subresources.
Use sample(ResourceId r, Stages s, SubresourceRange range = {}) {
  return {r, Access::shader_resource, s, range};
}
Use storage(ResourceId r, SubresourceRange range = {}) {
  return {r, Access::unordered_access, stages(Stage::compute), range};
}
Use target(ResourceId r) {
  return {r, Access::render_target, kNoStages, {}};
}
Use depth(ResourceId r, Access a) {
  return {r, a, kNoStages, {}};
}
Use constants(ResourceId r, Stages s) {
  return {r, Access::constant_buffer, s, {}};
}
SubresourceRange mip(uint32_t m) {
  return {m, 1, 0, kAll, 0, kAll};
}

ResourceDesc texture(std::string name, uint32_t w, uint32_t h, std::initializer_list<Access> usage) {
  ResourceDesc d;
  d.name = std::move(name);
  d.type = ResourceType::texture;
  d.width = w;
  d.height = h;
  for (Access a : usage) d.usage |= bit(a);
  return d;
}

ResourceDesc buffer(std::string name, uint64_t size, std::initializer_list<Access> usage) {
  ResourceDesc d;
  d.name = std::move(name);
  d.type = ResourceType::buffer;
  d.size = size;
  for (Access a : usage) d.usage |= bit(a);
  return d;
}

struct Ids {
  ResourceId constants, shadow, albedo, normal, scene_depth, ssao, hdr, particles, particle_args, taa_out,
      history, bloom, swapchain;
};

Ids declare(ResourceTable& t) {
  Ids id{};
  using A = Access;
  id.constants = t.add(buffer("frame_constants", 4096, {A::constant_buffer}));
  ResourceDesc shadow = texture("shadow_map", 2048, 2048, {A::depth_write, A::shader_resource});
  shadow.format = FormatClass::depth;
  id.shadow = t.add(shadow);
  // G-buffer targets are placed in a transient heap: their first write carries the discard.
  ResourceDesc albedo = texture("gbuffer_albedo", kWidth, kHeight, {A::render_target, A::shader_resource});
  albedo.placed = true;
  id.albedo = t.add(albedo);
  ResourceDesc normal = texture("gbuffer_normal", kWidth, kHeight, {A::render_target, A::shader_resource});
  normal.placed = true;
  id.normal = t.add(normal);
  ResourceDesc sd =
      texture("gbuffer_depth", kWidth, kHeight, {A::depth_write, A::depth_read, A::shader_resource});
  sd.format = FormatClass::depth_stencil;
  sd.planes = 2;  // depth and stencil are separate planes in both APIs
  id.scene_depth = t.add(sd);
  id.ssao = t.add(texture("ssao", kWidth / 2, kHeight / 2, {A::unordered_access, A::shader_resource}));
  id.hdr = t.add(texture("hdr_color", kWidth, kHeight, {A::render_target, A::shader_resource}));
  id.particles = t.add(buffer("particles", 1 << 20, {A::unordered_access, A::vertex_buffer}));
  id.particle_args = t.add(buffer("particle_draw_args", 64, {A::unordered_access, A::indirect_argument}));
  id.taa_out = t.add(
      texture("taa_output", kWidth, kHeight, {A::unordered_access, A::shader_resource, A::copy_source}));
  id.history = t.add(texture("taa_history", kWidth, kHeight, {A::shader_resource, A::copy_dest}));
  ResourceDesc bloom =
      texture("bloom_chain", kWidth / 2, kHeight / 2, {A::unordered_access, A::shader_resource});
  bloom.mips = kBloomMips;
  id.bloom = t.add(bloom);
  ResourceDesc sc = texture("swapchain", kWidth, kHeight, {A::render_target});
  sc.swapchain = true;
  id.swapchain = t.add(sc);
  return id;
}

constexpr Stages kPixel = stages(Stage::pixel);
constexpr Stages kCompute = stages(Stage::compute);
constexpr Stages kVertexPixel = Stage::vertex | Stage::pixel;

CommandList& new_list(Recording& rec, std::string name, Queue q) {
  rec.lists.push_back(std::make_unique<CommandList>(std::move(name), q));
  return *rec.lists.back();
}

void record_frame_a(Recording& rec, const Ids& id, CommandListGroup& g) {
  CommandList& shadow = new_list(rec, "shadow", Queue::direct);
  shadow.record(OpKind::clear, std::array{depth(id.shadow, Access::depth_write)}, "clear shadow map");
  for (int cascade = 0; cascade < 3; ++cascade)  // draws into one depth target merge into one op
    shadow.record(OpKind::draw,
                  std::array{depth(id.shadow, Access::depth_write), constants(id.constants, kVertexPixel)},
                  "shadow casters");
  shadow.close();
  g.add(shadow);

  CommandList& gbuffer = new_list(rec, "gbuffer", Queue::direct);
  gbuffer.record(OpKind::draw,
                 std::array{target(id.albedo), target(id.normal), depth(id.scene_depth, Access::depth_write),
                            constants(id.constants, kVertexPixel)},
                 "opaque geometry");
  gbuffer.close();
  g.add(gbuffer);

  CommandList& ssao = new_list(rec, "ssao", Queue::direct);
  ssao.record(OpKind::dispatch,
              std::array{sample(id.scene_depth, kCompute, {0, kAll, 0, kAll, 0, 1}),  // depth plane only
                         sample(id.normal, kCompute), storage(id.ssao), constants(id.constants, kCompute)},
              "ssao");
  ssao.close();
  g.add(ssao);
}

void record_frame_b(Recording& rec, const Ids& id, CommandListGroup& g) {
  CommandList& lighting = new_list(rec, "lighting", Queue::direct);
  lighting.record(OpKind::draw,
                  std::array{target(id.hdr), sample(id.albedo, kPixel), sample(id.normal, kPixel),
                             sample(id.scene_depth, kPixel), sample(id.ssao, kPixel),
                             sample(id.shadow, kPixel), constants(id.constants, kPixel)},
                  "deferred lighting");
  lighting.close();
  g.add(lighting);

  CommandList& particles = new_list(rec, "particles", Queue::direct);
  particles.record(OpKind::dispatch, std::array{storage(id.particles), storage(id.particle_args)},
                   "simulate");
  particles.record(OpKind::draw,
                   std::array{target(id.hdr), depth(id.scene_depth, Access::depth_read),
                              Use{id.particles, Access::vertex_buffer, kNoStages, {}},
                              Use{id.particle_args, Access::indirect_argument, kNoStages, {}}},
                   "draw particles");
  particles.close();
  g.add(particles);

  CommandList& taa = new_list(rec, "taa", Queue::direct);
  taa.record(OpKind::dispatch,
             std::array{sample(id.hdr, kCompute), sample(id.history, kCompute),
                        sample(id.scene_depth, kCompute, {0, kAll, 0, kAll, 0, 1}), storage(id.taa_out)},
             "temporal resolve");
  taa.record(OpKind::copy,
             std::array{Use{id.taa_out, Access::copy_source, kNoStages, {}},
                        Use{id.history, Access::copy_dest, kNoStages, {}}},
             "keep history");
  taa.close();
  g.add(taa);

  // Bloom: each downsample reads the mip above and writes the next; each upsample reads the mip
  // below and blends into its own. The recorder splits operations where a mip is used again.
  CommandList& bloom = new_list(rec, "bloom", Queue::direct);
  bloom.record(OpKind::dispatch, std::array{sample(id.taa_out, kCompute), storage(id.bloom, mip(0))},
               "downsample");
  for (uint32_t m = 1; m < kBloomMips; ++m)
    bloom.record(OpKind::dispatch,
                 std::array{sample(id.bloom, kCompute, mip(m - 1)), storage(id.bloom, mip(m))}, "downsample");
  for (uint32_t m = kBloomMips - 1; m-- > 0;)
    bloom.record(OpKind::dispatch,
                 std::array{sample(id.bloom, kCompute, mip(m + 1)), storage(id.bloom, mip(m))}, "upsample");
  bloom.close();
  g.add(bloom);

  CommandList& composite = new_list(rec, "composite", Queue::direct);
  composite.record(OpKind::draw,
                   std::array{target(id.swapchain), sample(id.taa_out, kPixel),
                              sample(id.bloom, kPixel, mip(0)), constants(id.constants, kPixel)},
                   "tonemap and composite");
  composite.record(OpKind::present, std::array{Use{id.swapchain, Access::present, kNoStages, {}}}, "present");
  composite.close();
  g.add(composite);
}

}  // namespace

Recording demo_recording() {
  Recording rec;
  const Ids id = declare(rec.resources);
  rec.groups.push_back(std::make_unique<CommandListGroup>("frame_a", Queue::direct));
  record_frame_a(rec, id, *rec.groups.back());
  rec.groups.push_back(std::make_unique<CommandListGroup>("frame_b", Queue::direct));
  record_frame_b(rec, id, *rec.groups.back());
  return rec;
}

}  // namespace baton
