// Lookups over the planner registry: by name, with the one "unknown planner" message,
// parameter resolution and the choice of planner for a query.

#include "planner/core/planner_registry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace pathscope {

const PlannerInfo* find_planner(std::string_view name, std::span<const PlannerInfo> registry) {
  for (const PlannerInfo& info : registry) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

Result<const PlannerInfo*> require_planner(std::string_view name, const std::string& where,
                                           std::span<const PlannerInfo> registry) {
  if (const PlannerInfo* info = find_planner(name, registry)) return info;
  std::string known;
  for (const PlannerInfo& p : registry) known += (known.empty() ? "\"" : ", \"") + p.name + "\"";
  return make_error(
      ErrorCode::Value, where,
      "unknown planner \"" + std::string(name) + "\" (known: " + (known.empty() ? "none" : known) + ")");
}

namespace {

// Why `value` is no value of `spec`, or "" when it is one.
std::string value_error(const ParamSpec& spec, double value) {
  if (!std::isfinite(value) || value < spec.min_value || value > spec.max_value) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "expected a number in [%g, %g], got %g", spec.min_value, spec.max_value,
                  value);
    return buf;
  }
  if (!spec.choices.empty() && value != std::floor(value)) {
    std::string names;
    for (std::size_t i = 0; i < spec.choices.size(); ++i) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", spec.min_value + double(i));
      names += (i ? ", " : "") + std::string(buf) + " " + spec.choices[i];
    }
    char got[64];
    std::snprintf(got, sizeof got, "%g", value);
    return "expected one of " + names + ", got " + got;
  }
  return "";
}

// The planner's rule between its parameters, its error naming the planner.
Status check_rule(const PlannerInfo& info, std::span<const double> values, const std::string& where) {
  if (!info.check) return Ok{};
  Status s = info.check(values);
  if (s) return s;
  return make_error(s.error().code, where, "planner \"" + info.name + "\": " + s.error().message);
}

}  // namespace

Result<ParamValues> resolve_params(const PlannerInfo& info, std::span<const PlannerParam> overrides,
                                   const std::string& where_prefix) {
  ParamValues values;
  for (const ParamSpec& spec : info.params) values.push_back(spec.default_value);
  // A command-line option names the parameter after it ("--param weight"); a file's
  // field is the path to it ("queries[2].params.weight").
  const bool option = where_prefix.starts_with("--");
  for (const PlannerParam& p : overrides) {
    const std::string where = option ? where_prefix + " " + p.name : where_prefix + ".params." + p.name;
    std::size_t k = 0;
    while (k < info.params.size() && info.params[k].name != p.name) ++k;
    if (k == info.params.size()) {
      std::string known;
      for (const ParamSpec& spec : info.params) known += (known.empty() ? "" : ", ") + spec.name;
      return make_error(ErrorCode::Schema, where,
                        "planner \"" + info.name + "\" has no parameter \"" + p.name +
                            "\" (known: " + (known.empty() ? "none" : known) + ")");
    }
    const std::string bad = value_error(info.params[k], p.value);
    if (!bad.empty()) return make_error(ErrorCode::Value, where, bad);
    values[k] = p.value;
  }
  Status rule = check_rule(info, values, option ? where_prefix : where_prefix + ".params");
  if (!rule) return rule.error();
  return values;
}

Status check_params(const PlannerInfo& info, std::span<const double> values, const std::string& where) {
  if (values.size() != info.params.size()) {
    const std::size_t n = info.params.size();
    std::string message = "planner \"" + info.name + "\" takes " + std::to_string(n) + " parameter" +
                          (n == 1 ? "" : "s") + ", got " + std::to_string(values.size());
    if (values.size() < n)
      message += ": no value for \"" + info.params[values.size()].name + "\"";
    else
      message += ": nothing takes value " + std::to_string(n + 1);
    return make_error(ErrorCode::Schema, where, message);
  }
  for (std::size_t k = 0; k < values.size(); ++k) {
    const std::string bad = value_error(info.params[k], values[k]);
    if (!bad.empty())
      return make_error(ErrorCode::Value, where + "." + info.params[k].name,
                        "planner \"" + info.name + "\": " + bad);
  }
  return check_rule(info, values, where);
}

Result<std::unique_ptr<Planner>> make_planner(const PlannerInfo& info, const QueryContext& context,
                                              const std::string& where) {
  Status ok = check_params(info, context.params, where);
  if (!ok) return ok.error();
  return info.create(context);
}

double declared_clearance(const PlannerInfo& info, const QueryContext& context) {
  return info.clearance ? info.clearance(context) : 0.0;
}

Result<PlannerChoice> choose_planner(const PlannerChoiceRequest& r) {
  const bool overridden = !r.override_planner.empty();
  const std::string_view name = overridden ? r.override_planner : r.query_planner;
  auto info = require_planner(name, overridden ? r.override_where : r.query_where + ".planner", r.registry);
  if (!info) return info.error();
  // The query's parameters belong to its own planner; the override's are laid on top.
  std::vector<PlannerParam> params;
  if (name == r.query_planner) params.assign(r.query_params.begin(), r.query_params.end());
  for (const PlannerParam& p : r.override_params) {
    auto it =
        std::find_if(params.begin(), params.end(), [&](const PlannerParam& o) { return o.name == p.name; });
    if (it != params.end())
      it->value = p.value;
    else
      params.push_back(p);
  }
  const bool from_override = overridden || !r.override_params.empty();
  auto values = resolve_params(**info, params, from_override ? r.override_params_where : r.query_where);
  if (!values) return values.error();
  return PlannerChoice{*info, std::move(*values)};
}

}  // namespace pathscope
