#version 450
layout(location = 0) flat in vec3 v_normal;
layout(location = 1) flat in vec4 v_albedo;
layout(location = 0) out vec4 o_albedo;  // rgb, a = emissive
layout(location = 1) out vec4 o_normal;  // view-space normal, a = 1 (0 where nothing was drawn)
void main() {
  o_albedo = v_albedo;
  o_normal = vec4(v_normal, 1.0);
}
