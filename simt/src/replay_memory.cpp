/**
 * @file
 * @brief Mémoire que le mode « courses de données » (races.cpp) restaure entre deux ordres,
 *        en plus des allocations de cudaMalloc : les variables globales du programme
 *        (`__device__`, `__managed__`, que le prélude réduit à de simples variables
 *        globales) et les régions de l'hôte qu'un noyau peut écrire (mémoire épinglée),
 *        enregistrées par l'API runtime.
 *
 * Les variables globales sont lues une fois dans la table des symboles de l'exécutable
 * (/proc/self/exe, .symtab ou, s'il est dépouillé, .dynsym) : les objets des sections
 * .data et .bss, hors ceux de simt, de la bibliothèque standard, de GoogleTest et de
 * Boost, dont l'état ne doit pas revenir en arrière. Les variables de l'hôte y figurent
 * aussi : un noyau ne peut pas les écrire, et le code de l'hôte ne s'exécute pas entre deux
 * ordres, si bien que les restaurer ne change rien, sauf pour un autre thread de l'hôte qui
 * les modifierait pendant le lancement (cas non pris en charge). Seuls les octets qui
 * diffèrent sont réécrits.
 */
#include "internal.hpp"

#include <cxxabi.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>

namespace simt::detail {

namespace {

struct Registered {
    std::size_t size;
    std::string kind;
};

std::mutex& regions_mutex() {
    static std::mutex mutex;
    return mutex;
}

std::map<std::byte*, Registered>& registered() {
    static std::map<std::byte*, Registered> regions;
    return regions;
}

/** @brief Adresse de chargement de l'exécutable (position indépendante : PIE). */
ElfW(Addr) program_base() {
    ElfW(Addr) base = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            *static_cast<ElfW(Addr)*>(data) = info->dlpi_addr;
            return 1;  // le premier objet est l'exécutable
        },
        &base);
    return base;
}

bool read_at(int file, void* buffer, std::size_t size, off_t offset) {
    return pread(file, buffer, size, offset) == static_cast<ssize_t>(size);
}

/** @brief Une section dont les objets sont des variables modifiables ordinaires. */
bool is_plain_data(std::string_view name) {
    const bool data = name == ".data" || name.starts_with(".data.") || name == ".bss" ||
                      name.starts_with(".bss.");
    return data && name.find(".rel.ro") == std::string_view::npos;
}

/** @brief Un symbole qui appartient au programme de l'utilisateur, pas à une bibliothèque. */
bool is_user_symbol(std::string_view name) {
    static constexpr std::string_view kForeign[] = {
        "_ZN4simt",       "_ZZN4simt",  "_ZNSt",         "_ZSt",         "_ZZNSt",     "_ZZSt",
        "_ZN9__gnu_cxx",  "_ZZN9__gnu_cxx", "_ZN7testing", "_ZZN7testing", "_ZN5boost", "_ZZN5boost",
        "_ZGV",           "_ZTV",       "_ZTI",          "_ZTS",         "__",         "_IO_"};
    static constexpr std::string_view kLibc[] = {"stdin",  "stdout", "stderr", "environ",
                                                 "optarg", "optind", "opterr", "optopt"};
    if (name.empty() || name.find('.') != std::string_view::npos) return false;
    for (std::string_view prefix : kForeign)
        if (name.starts_with(prefix)) return false;
    return std::find(std::begin(kLibc), std::end(kLibc), name) == std::end(kLibc);
}

std::string demangle(const char* name) {
    int status = 0;
    char* text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string result = status == 0 && text ? text : name;
    std::free(text);
    return result;
}

std::vector<ReplayRegion> read_program_globals() {
    std::vector<ReplayRegion> globals;
    const int file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (file < 0) return globals;
    ElfW(Ehdr) header{};
    std::vector<ElfW(Shdr)> sections;
    if (read_at(file, &header, sizeof header, 0) &&
        std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 && header.e_shentsize == sizeof(ElfW(Shdr))) {
        sections.resize(header.e_shnum);
        if (!read_at(file, sections.data(), sections.size() * sizeof(ElfW(Shdr)), off_t(header.e_shoff)))
            sections.clear();
    }
    std::string section_names;
    if (!sections.empty() && header.e_shstrndx < sections.size()) {
        const ElfW(Shdr)& names = sections[header.e_shstrndx];
        section_names.resize(names.sh_size);
        if (!read_at(file, section_names.data(), names.sh_size, off_t(names.sh_offset))) sections.clear();
    }
    const ElfW(Shdr)* table = nullptr;
    for (const ElfW(Shdr)& section : sections)
        if (section.sh_type == SHT_SYMTAB) table = &section;
    if (!table)
        for (const ElfW(Shdr)& section : sections)
            if (section.sh_type == SHT_DYNSYM) table = &section;
    if (table && table->sh_link < sections.size() && table->sh_entsize == sizeof(ElfW(Sym))) {
        const ElfW(Shdr)& strings = sections[table->sh_link];
        std::vector<ElfW(Sym)> symbols(table->sh_size / sizeof(ElfW(Sym)));
        std::string names(strings.sh_size, '\0');
        if (read_at(file, symbols.data(), symbols.size() * sizeof(ElfW(Sym)), off_t(table->sh_offset)) &&
            read_at(file, names.data(), names.size(), off_t(strings.sh_offset))) {
            const ElfW(Addr) base = program_base();
            for (const ElfW(Sym)& symbol : symbols) {
                if (ELF64_ST_TYPE(symbol.st_info) != STT_OBJECT || symbol.st_size == 0 ||
                    symbol.st_shndx >= sections.size() || symbol.st_name >= names.size())
                    continue;
                const ElfW(Shdr)& section = sections[symbol.st_shndx];
                if ((section.sh_flags & (SHF_ALLOC | SHF_WRITE)) != (SHF_ALLOC | SHF_WRITE) ||
                    (section.sh_flags & SHF_TLS) || section.sh_name >= section_names.size() ||
                    !is_plain_data(section_names.c_str() + section.sh_name))
                    continue;
                const char* name = names.c_str() + symbol.st_name;
                if (!is_user_symbol(name)) continue;
                globals.push_back({reinterpret_cast<std::byte*>(base + symbol.st_value),
                                   std::size_t(symbol.st_size), "variable " + demangle(name)});
            }
        }
    }
    close(file);
    // Un même objet peut avoir deux symboles (alias) : une fois suffit.
    std::sort(globals.begin(), globals.end(),
              [](const ReplayRegion& a, const ReplayRegion& b) { return a.begin < b.begin; });
    globals.erase(std::unique(globals.begin(), globals.end(),
                              [](const ReplayRegion& a, const ReplayRegion& b) { return a.begin == b.begin; }),
                  globals.end());
    return globals;
}

// Copie et comparaison octet par octet, hors AddressSanitizer : la taille d'un symbole peut
// déborder sur la zone rouge que l'instrumentation place après une variable globale.
__attribute__((no_sanitize("address"))) void read_bytes(const std::byte* source, std::byte* copy,
                                                        std::size_t size) {
    const volatile std::byte* from = source;
    for (std::size_t i = 0; i < size; ++i) copy[i] = from[i];
}

__attribute__((no_sanitize("address"))) void write_changed_bytes(std::byte* target, const std::byte* copy,
                                                                 std::size_t size) {
    volatile std::byte* to = target;
    for (std::size_t i = 0; i < size; ++i)
        if (to[i] != copy[i]) to[i] = copy[i];
}

}  // namespace

void register_replay_region(void* begin, std::size_t size, const char* kind) {
    if (!begin || size == 0) return;
    std::lock_guard lock(regions_mutex());
    registered()[static_cast<std::byte*>(begin)] = {size, kind};
}

void unregister_replay_region(void* begin) {
    std::lock_guard lock(regions_mutex());
    registered().erase(static_cast<std::byte*>(begin));
}

std::vector<ReplayRegion> replay_regions() {
    static const std::vector<ReplayRegion> globals = read_program_globals();
    std::vector<ReplayRegion> regions = globals;
    std::lock_guard lock(regions_mutex());
    for (const auto& [begin, region] : registered()) regions.push_back({begin, region.size, region.kind});
    return regions;
}

std::vector<std::vector<std::byte>> snapshot_regions(const std::vector<ReplayRegion>& regions) {
    std::vector<std::vector<std::byte>> copies;
    copies.reserve(regions.size());
    for (const ReplayRegion& region : regions) {
        copies.emplace_back(region.size);
        read_bytes(region.begin, copies.back().data(), region.size);
    }
    return copies;
}

void restore_regions(const std::vector<ReplayRegion>& regions,
                     const std::vector<std::vector<std::byte>>& copies) {
    for (std::size_t i = 0; i < regions.size() && i < copies.size(); ++i)
        write_changed_bytes(regions[i].begin, copies[i].data(), regions[i].size);
}

}  // namespace simt::detail
