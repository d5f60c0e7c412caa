/**
 * @file front_matter.cpp
 * @brief Lecture des clés « exemples » et « sans_exemple » de l'en-tête YAML d'une page.
 */
#include "front_matter.hpp"

#include <cctype>

#include "text.hpp"
#include "yaml_header.hpp"

namespace noyaux::integrity {
namespace {

constexpr std::string_view kExamples = "exemples";
constexpr std::string_view kNoExample = "sans_exemple";
constexpr std::string_view kExpectedItem = "« - examples/<partie>/<NN-slug> »";

class Reader {
public:
    Reader(const YamlHeader& header, std::string_view file, FrontMatter& result)
        : header_(header), file_(file), result_(result) {}

    void read() {
        for (const auto& pair : header_.node) {
            if (!pair.first.IsScalar()) continue;
            const std::string& key = pair.first.Scalar();
            const int line = header_.line_of(pair.first);
            // Une clé répétée est déjà signalée par l'en-tête : on lit la première.
            if (key == kExamples && !result_.examples_line) read_examples(pair.second, line);
            if (key == kNoExample && !result_.no_example) read_reason(pair.second, line);
        }
    }

private:
    void error(int line, std::string message) {
        result_.errors.push_back({std::string(file_), line, std::move(message)});
    }

    // « exemples: » suivi d'éléments « - chemin », ou « exemples: [a, b] » ; vide permis
    // ici (la règle 1 le signale).
    void read_examples(const YAML::Node& value, int key_line) {
        result_.examples_line = key_line;
        if (value.IsNull()) return;
        if (!value.IsSequence()) {
            error(key_line, "« exemples » attend une liste : un élément " +
                                std::string(kExpectedItem) + " par ligne, ou [ a, b ] ; reçu " +
                                (value.IsScalar() ? guillemets(value.Scalar()) : "une table"));
            return;
        }
        for (const YAML::Node& item : value) {
            const int line = header_.line_of(item);
            if (item.IsNull() || (item.IsScalar() && trim(item.Scalar()).empty())) {
                error(line, "élément vide dans « exemples »");
            } else if (!item.IsScalar()) {
                error(line, "élément de « exemples » mal formé : attendu " +
                                std::string(kExpectedItem) + ", reçu une liste ou une table");
            } else {
                std::string path(trim(item.Scalar()));
                while (path.size() > 1 && path.back() == '/') path.pop_back();
                if (path.starts_with("./")) path.erase(0, 2);
                result_.examples.push_back({std::move(path), line});
            }
        }
    }

    // « sans_exemple: raison », sur une ou plusieurs lignes (bloc « > » compris). Une raison
    // illisible reste déclarée, vide : la règle 1 ne la signale pas deux fois.
    void read_reason(const YAML::Node& value, int key_line) {
        std::string reason;
        if (value.IsScalar())
            reason = value.Scalar();
        else if (!value.IsNull())
            error(key_line, "« sans_exemple » attend une phrase, pas une liste ni une table");
        while (!reason.empty() && std::isspace(static_cast<unsigned char>(reason.back())))
            reason.pop_back();  // un bloc « > » finit par un saut de ligne
        result_.no_example = Located{std::string(trim(reason)), key_line};
    }

    const YamlHeader& header_;
    std::string_view file_;
    FrontMatter& result_;
};

}  // namespace

FrontMatter parse_front_matter(const std::vector<std::string>& lines, std::string_view file) {
    const YamlHeader header = parse_yaml_header(lines, file);
    FrontMatter result;
    result.body_line = header.body_line;
    if (header.error) result.errors.push_back(*header.error);
    if (header.node.IsMap()) Reader(header, file, result).read();
    return result;
}

}  // namespace noyaux::integrity
