// Writes a recording in the JSON recording format. Keys come in the documented order and default
// values are left out, so a written file reads like one written by hand.
#include <algorithm>
#include <bit>

#include "baton/recording.hpp"
#include "json_pretty.hpp"

namespace baton {
namespace {

using OJson = nlohmann::ordered_json;

OJson stages_json(Stages s) {
  if (s == kAllShading || std::has_single_bit(static_cast<unsigned>(s))) return stages_to_string(s);
  OJson arr = OJson::array();
  for (Stage st : {Stage::vertex, Stage::pixel, Stage::compute})
    if (s & stages(st)) arr.push_back(stages_to_string(stages(st)));
  return arr;
}

OJson resource_json(const ResourceDesc& d) {
  OJson j;
  j["name"] = d.name;
  if (d.type == ResourceType::buffer) {
    j["type"] = "buffer";
    j["size"] = d.size;
  } else {
    j["type"] = "texture";
    j["width"] = d.width;
    j["height"] = d.height;
    if (d.mips != 1) j["mips"] = d.mips;
    if (d.layers != 1) j["layers"] = d.layers;
    if (d.planes != 1) j["planes"] = d.planes;
    if (d.format != FormatClass::color) j["format"] = to_string(d.format);
  }
  if (d.usage != 0) {
    OJson usage = OJson::array();
    for (int i = 0; i < kAccessCount; ++i)
      if (d.usage & bit(static_cast<Access>(i))) usage.push_back(to_string(static_cast<Access>(i)));
    j["usage"] = usage;
  }
  if (d.placed) j["placed"] = true;
  if (d.simultaneous_access) j["simultaneous_access"] = true;
  if (d.swapchain) j["swapchain"] = true;
  if (d.resting) j["resting"] = to_string(*d.resting);
  return j;
}

void access_json(OJson& j, Access a, Stages s) {
  j["access"] = to_string(a);
  if (is_shader_access(a)) j["stages"] = stages_json(s);
}

OJson use_json(const ResourceTable& resources, const Use& u) {
  const ResourceDesc& d = resources[u.resource];
  OJson j;
  j["resource"] = d.name;
  access_json(j, u.access, u.stages);
  // Ranges are written resolved ([first, count]) and only where they are not the whole axis.
  const Box b = resolve(d, u.range);
  const Box full = full_box(d);
  if (b.m0 != full.m0 || b.m1 != full.m1) j["mips"] = {b.m0, b.m1 - b.m0};
  if (b.l0 != full.l0 || b.l1 != full.l1) j["layers"] = {b.l0, b.l1 - b.l0};
  if (b.p0 != full.p0 || b.p1 != full.p1) j["planes"] = {b.p0, b.p1 - b.p0};
  if (has_bytes(u.range)) {
    const Box e = use_extent(d, u.range);
    const uint64_t end = e.m1 == buffer_extent(d).m1 ? d.size : e.m1;
    j["bytes"] = {uint64_t{e.m0}, end - e.m0};
  }
  return j;
}

OJson list_json(const ResourceTable& resources, const CommandList& l) {
  OJson j;
  j["name"] = l.name();
  if (!l.entry_states().empty()) {
    OJson entry = OJson::array();
    for (const EntryState& e : l.entry_states()) {
      OJson ej;
      ej["resource"] = resources[e.resource].name;
      access_json(ej, e.access, e.stages);
      entry.push_back(ej);
    }
    j["entry"] = entry;
  }
  OJson ops = OJson::array();
  for (const Operation& op : l.ops()) {
    OJson oj;
    oj["kind"] = to_string(op.kind);
    if (!op.label.empty()) oj["label"] = op.label;
    if (op.full_barrier) oj["full_barrier"] = true;
    // Commands merged into one operation often repeat a binding; a repeated use adds nothing.
    OJson uses = OJson::array();
    for (const Use& u : op.uses) {
      OJson uj = use_json(resources, u);
      if (std::find(uses.begin(), uses.end(), uj) == uses.end()) uses.push_back(std::move(uj));
    }
    oj["uses"] = uses;
    ops.push_back(oj);
  }
  j["ops"] = ops;
  return j;
}

}  // namespace

std::string save_recording(const Recording& r) {
  OJson root;
  OJson resources = OJson::array();
  for (const ResourceDesc& d : r.resources.all()) resources.push_back(resource_json(d));
  root["resources"] = resources;
  OJson groups = OJson::array();
  for (const auto& g : r.groups) {
    OJson gj;
    gj["name"] = g->name();
    gj["queue"] = to_string(g->queue());
    OJson lists = OJson::array();
    for (const CommandList* l : g->lists()) lists.push_back(list_json(r.resources, *l));
    gj["lists"] = lists;
    groups.push_back(gj);
  }
  root["groups"] = groups;
  return io::pretty_json(root);
}

}  // namespace baton
