#include "scenario/model/scenario-document.h"

#include "ns3/log.h"
#include "scenario/model/scenario-error.h"

#include <algorithm>
#include <set>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioDocument");

namespace
{

using json = nlohmann::json;

const std::string kRoot = "(root)";
const std::string kSetFile = "--set";

std::string
KeyPath(const std::string& parent, const std::string& key)
{
    return parent == kRoot ? key : parent + "." + key;
}

std::string
IndexPath(const std::string& parent, std::size_t index)
{
    return (parent == kRoot ? std::string() : parent) + "[" + std::to_string(index) + "]";
}

std::string
Quote(const std::string& s)
{
    return "'" + s + "'";
}

std::string
TypeWithArticle(const json& v)
{
    const std::string t = v.type_name();
    const bool vowel = !t.empty() && std::string("aeiou").find(t[0]) != std::string::npos;
    return (vowel ? "an " : "a ") + t;
}

bool
AllDigits(const std::string& s)
{
    return !s.empty()
           && std::all_of(s.begin(),
                          s.end(),
                          [](char c)
                          {
                              return c >= '0' && c <= '9';
                          });
}

/*
 * nlohmann::json keeps the last of duplicate keys without a word; a scenario with two "seed"
 * keys is almost certainly a mistake, so the parse callback tracks the path and rejects them.
 */
json
ParseText(const std::string& text, const std::string& file)
{
    struct Frame
    {
        bool isArray{false};
        std::size_t count{0}; // elements seen so far (arrays)
        std::string key;      // current key (objects)
        std::set<std::string> keys;
    };

    std::vector<Frame> stack;
    auto currentPath = [&stack]()
    {
        std::string path = kRoot;
        for (const Frame& f : stack)
        {
            path = f.isArray ? IndexPath(path, f.count - 1) : KeyPath(path, f.key);
        }
        return path;
    };
    auto enterValue = [&stack]()
    {
        if (!stack.empty() && stack.back().isArray)
        {
            ++stack.back().count;
        }
    };
    json::parser_callback_t callback = [&](int depth, json::parse_event_t event, json& parsed)
    {
        switch (event)
        {
            case json::parse_event_t::object_start:
            case json::parse_event_t::array_start:
                enterValue();
                if (stack.size() >= ScenarioDocument::MAX_DEPTH)
                {
                    throw ScenarioError(file,
                                        currentPath(),
                                        "nested deeper than "
                                            + std::to_string(ScenarioDocument::MAX_DEPTH)
                                            + " levels of objects and arrays");
                }
                stack.emplace_back();
                stack.back().isArray = event == json::parse_event_t::array_start;
                break;
            case json::parse_event_t::key:
            {
                Frame& f = stack.back();
                f.key = parsed.get<std::string>();
                if (!f.keys.insert(f.key).second)
                {
                    throw ScenarioError(file,
                                        currentPath(),
                                        "duplicate key " + Quote(f.key)
                                            + "; each key may appear only once in an object");
                }
                break;
            }
            case json::parse_event_t::value:
                enterValue();
                break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                stack.pop_back();
                break;
        }
        return true;
    };

    try
    {
        return json::parse(text, callback);
    }
    catch (const json::parse_error& e)
    {
        // Line and column of the byte where parsing stopped (both 1-based).
        const std::size_t stop = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        const std::size_t line = 1 + std::count(text.begin(), text.begin() + stop, '\n');
        const std::size_t lastNewline = text.rfind('\n', stop == 0 ? 0 : stop - 1);
        const std::size_t column
            = (lastNewline == std::string::npos || stop == 0) ? stop + 1 : stop - lastNewline;
        std::string detail = e.what();
        const std::size_t at = detail.find("column ");
        const std::size_t colon = detail.find(": ", at == std::string::npos ? 0 : at);
        if (colon != std::string::npos)
        {
            detail = detail.substr(colon + 2);
        }
        throw ScenarioError(file,
                            kRoot,
                            "line " + std::to_string(line) + ", column " + std::to_string(column)
                                + ": " + detail);
    }
    catch (const json::exception& e)
    {
        std::string detail = e.what();
        const std::size_t bracket = detail.find("] ");
        if (bracket != std::string::npos)
        {
            detail = detail.substr(bracket + 2);
        }
        throw ScenarioError(file, kRoot, "invalid JSON: " + detail);
    }
}

/// One step of a --set path: an object key, or an explicit [index].
struct SetSegment
{
    std::string key;
    bool isIndex{false};
    std::size_t index{0};
};

std::vector<SetSegment>
ParseSetPath(const std::string& path)
{
    auto fail = [&path](const std::string& reason)
    {
        throw ScenarioError(kSetFile,
                            path,
                            reason
                                + "; expected PATH=VALUE, e.g. nic.mtu_bytes=2048 "
                                  "or workloads[0].bytes=4096");
    };
    std::vector<SetSegment> segments;
    std::size_t start = 0;
    while (true)
    {
        const std::size_t dot = path.find('.', start);
        const std::string piece
            = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        const std::size_t bracket = piece.find('[');
        const std::string name = piece.substr(0, bracket);
        if (name.empty())
        {
            fail("empty key in path");
        }
        if (name.find(']') != std::string::npos)
        {
            fail("unmatched ']' in path");
        }
        segments.push_back(SetSegment{name, false, 0});
        std::size_t pos = bracket;
        while (pos != std::string::npos && pos < piece.size())
        {
            if (piece[pos] != '[')
            {
                fail("unexpected text after ']' in path");
            }
            const std::size_t close = piece.find(']', pos);
            if (close == std::string::npos)
            {
                fail("unclosed '[' in path");
            }
            const std::string digits = piece.substr(pos + 1, close - pos - 1);
            if (!AllDigits(digits) || digits.size() > 9)
            {
                fail("array index must be a non-negative integer, got [" + digits + "]");
            }
            segments.push_back(SetSegment{"", true, std::stoul(digits)});
            pos = close + 1;
        }
        if (dot == std::string::npos)
        {
            break;
        }
        start = dot + 1;
    }
    return segments;
}

/// Removes the key that segments name from doc; the key must be there, inside objects and
/// arrays that are (a misspelt path is an error, not a silent no-op).
std::string
RemoveAt(json& doc, const std::vector<SetSegment>& segments, const std::string& path)
{
    json* node = &doc;
    std::string canonical = kRoot;
    for (std::size_t i = 0; i + 1 < segments.size(); ++i)
    {
        const SetSegment& seg = segments[i];
        const bool asIndex = seg.isIndex || (node->is_array() && AllDigits(seg.key));
        if (asIndex && node->is_array() && (seg.isIndex || seg.key.size() <= 9))
        {
            const std::size_t index = seg.isIndex ? seg.index : std::stoul(seg.key);
            if (index < node->size())
            {
                node = &(*node)[index];
                canonical = IndexPath(canonical, index);
                continue;
            }
        }
        else if (!asIndex && node->is_object() && node->contains(seg.key))
        {
            node = &(*node)[seg.key];
            canonical = KeyPath(canonical, seg.key);
            continue;
        }
        throw ScenarioError(
            kSetFile, path, "nothing to remove: the scenario has no " + Quote(path));
    }
    const SetSegment& seg = segments.back();
    if (seg.isIndex || !node->is_object())
    {
        throw ScenarioError(kSetFile,
                            path,
                            "null removes a key of an object; " + Quote(canonical) + " is "
                                + TypeWithArticle(*node));
    }
    if (!node->contains(seg.key))
    {
        throw ScenarioError(
            kSetFile, path, "nothing to remove: the scenario has no " + Quote(path));
    }
    node->erase(seg.key);
    return KeyPath(canonical, seg.key);
}

} // namespace

json
ScenarioDocument::Parse(const std::string& text, const std::string& file)
{
    NS_LOG_FUNCTION(file);
    return ParseText(text, file);
}

std::string
ScenarioDocument::ApplySet(json& doc, const std::string& set)
{
    NS_LOG_FUNCTION(set);
    const std::size_t eq = set.find('=');
    if (eq == std::string::npos)
    {
        throw ScenarioError(
            kSetFile, set, "missing '='; expected PATH=VALUE, e.g. nic.mtu_bytes=2048");
    }
    const std::string path = set.substr(0, eq);
    const std::string text = set.substr(eq + 1);
    if (path.empty())
    {
        throw ScenarioError(kSetFile,
                            kRoot,
                            "empty path in " + Quote(set)
                                + "; expected PATH=VALUE, e.g. nic.mtu_bytes=2048");
    }
    const std::vector<SetSegment> segments = ParseSetPath(path);
    if (segments.size() >= ScenarioDocument::MAX_DEPTH)
    {
        throw ScenarioError(kSetFile,
                            kRoot,
                            "the path has " + std::to_string(segments.size())
                                + " parts, more than a document's "
                                + std::to_string(ScenarioDocument::MAX_DEPTH) + " levels");
    }

    // JSON if it parses (numbers, booleans, arrays...), otherwise the text itself; no deeper
    // than a document may be where it goes.
    const json::parser_callback_t depthGuard = [&](int depth, json::parse_event_t event, json&)
    {
        if ((event == json::parse_event_t::object_start
             || event == json::parse_event_t::array_start)
            && static_cast<std::size_t>(depth) + segments.size() >= ScenarioDocument::MAX_DEPTH)
        {
            throw ScenarioError(kSetFile,
                                path,
                                "the value is nested deeper than a document's "
                                    + std::to_string(ScenarioDocument::MAX_DEPTH)
                                    + " levels of objects and arrays");
        }
        return true;
    };
    json value = json::parse(text, depthGuard, false);
    if (value.is_discarded())
    {
        value = text;
    }

    // PATH=null removes the key, so that a default applies again (a sweep's --unset).
    if (value.is_null())
    {
        return RemoveAt(doc, segments, path);
    }

    json* node = &doc;
    std::string canonical = kRoot;
    for (std::size_t i = 0; i < segments.size(); ++i)
    {
        const SetSegment& seg = segments[i];
        const bool last = i + 1 == segments.size();
        const bool asIndex = seg.isIndex || (node->is_array() && AllDigits(seg.key));
        if (asIndex)
        {
            if (!node->is_array())
            {
                throw ScenarioError(kSetFile,
                                    path,
                                    "cannot index " + Quote(canonical) + ": it is "
                                        + TypeWithArticle(*node) + ", not an array");
            }
            if (!seg.isIndex && seg.key.size() > 9)
            {
                throw ScenarioError(kSetFile, path, "array index " + seg.key + " is too large");
            }
            const std::size_t index = seg.isIndex ? seg.index : std::stoul(seg.key);
            if (index >= node->size())
            {
                throw ScenarioError(kSetFile,
                                    path,
                                    "index " + std::to_string(index)
                                        + " is out of range: " + Quote(canonical) + " has "
                                        + std::to_string(node->size()) + " element(s)");
            }
            node = &(*node)[index];
            canonical = IndexPath(canonical, index);
            continue;
        }
        if (node->is_null())
        {
            *node = json::object();
        }
        if (!node->is_object())
        {
            throw ScenarioError(kSetFile,
                                path,
                                "cannot set key " + Quote(seg.key) + " inside " + Quote(canonical)
                                    + ": it is " + TypeWithArticle(*node) + ", not an object");
        }
        canonical = KeyPath(canonical, seg.key);
        if (!last && !node->contains(seg.key))
        {
            (*node)[seg.key] = json::object();
        }
        node = &(*node)[seg.key];
    }
    *node = value;
    return canonical;
}

} // namespace ns3
