// vkconv-info: the device capability record, as text or JSON (--json).  --list: all devices.
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "vkconv/vkconv.hpp"

int main(int argc, char** argv) {
    bool json = false, list = false;
    vkconv::ContextCreateInfo info;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--json"))
            json = true;
        else if (!std::strcmp(argv[i], "--list"))
            list = true;
        else if (!std::strcmp(argv[i], "--validation"))
            info.enableValidation = true;
        else if (!std::strcmp(argv[i], "--device") && i + 1 < argc)
            info.device = argv[++i];
        else {
            std::fprintf(stderr,
                         "usage: vkconv-info [--json] [--list] [--device INDEX|NAME] [--validation]\n"
                         "  VKCONV_DEVICE selects the device too (index or name substring).\n");
            return 2;
        }
    }
    try {
        if (list) {
            for (auto& d : vkconv::listDevices()) std::printf("%s\n", d.c_str());
            return 0;
        }
        auto ctx = vkconv::Context::create(info);
        if (json) {
            // The device record as DeviceCaps::toJson writes it (a profile DeviceCaps::fromJson reads).
            const nlohmann::ordered_json doc = {
                {"vkconv",
                 {{"version", vkconv::versionString()},
                  {"git", vkconv::gitRevision()},
                  {"shader_compiler", vkconv::shaderCompiler()}}},
                {"device", nlohmann::ordered_json::parse(ctx.caps().toJson())},
            };
            std::printf("%s\n", doc.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace).c_str());
        } else {
            std::printf("vkconv %s (%s, %s)\n%s", vkconv::versionString(), vkconv::gitRevision(),
                        vkconv::shaderCompiler(), ctx.caps().toText().c_str());
        }
        return ctx.validationMessages() ? 1 : 0;
    } catch (const vkconv::Error& e) {
        std::fprintf(stderr, "vkconv-info: %s\n", e.what());
        return 1;
    }
}
