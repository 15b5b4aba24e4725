// The editor's messages: severities, the pinned error, dismissing and clearing.

#include "app/editor/message_log.hpp"

#include "app/editor/editor_state.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace pathscope::app;

TEST_SUITE("messages") {
  TEST_CASE("report, report_warning and report_error append with their severity") {
    EditorState state;
    CHECK(state.messages.empty());
    state.report("opened a.json");
    state.report_warning("a road needs at least 2 points");
    state.report_error("b.json:3:7: syntax error");
    REQUIRE(state.messages.size() == 3);
    CHECK(state.messages.entries()[0] == Message{Severity::Info, "opened a.json"});
    CHECK(state.messages.entries()[1] == Message{Severity::Warning, "a road needs at least 2 points"});
    CHECK(state.messages.back() == Message{Severity::Error, "b.json:3:7: syntax error"});
  }

  TEST_CASE("the panel's text: errors and warnings prefixed, info as is") {
    CHECK(display_text({Severity::Info, "saved a.json"}) == "saved a.json");
    CHECK(display_text({Severity::Warning, "few points"}) == "warning: few points");
    CHECK(display_text({Severity::Error, "cannot save: x"}) == "error: cannot save: x");
    CHECK(std::string(to_string(Severity::Error)) == "error");
  }

  TEST_CASE("the latest error is pinned through later messages until dismissed") {
    EditorState state;
    state.report("opened a.json");
    CHECK(state.messages.pinned_error() == nullptr);  // Info and warnings are not pinned.
    state.report_warning("careful");
    CHECK(state.messages.pinned_error() == nullptr);

    state.report_error("cannot save: a.json: read-only");
    REQUIRE(state.messages.pinned_error());
    CHECK(state.messages.pinned_error()->text == "cannot save: a.json: read-only");
    for (int i = 0; i < 50; ++i) state.report("exported view" + std::to_string(i) + ".png");
    state.report_warning("another warning");
    REQUIRE(state.messages.pinned_error());
    CHECK(state.messages.pinned_error()->severity == Severity::Error);
    CHECK(state.messages.pinned_error()->text == "cannot save: a.json: read-only");

    state.report_error("Move refused: features[0].points: self-intersecting");
    REQUIRE(state.messages.pinned_error());
    CHECK(state.messages.pinned_error()->text == "Move refused: features[0].points: self-intersecting");

    const std::size_t count = state.messages.size();
    state.messages.dismiss_error();
    CHECK(state.messages.pinned_error() == nullptr);
    CHECK(state.messages.size() == count);  // Still in the list.
    state.report("saved a.json");
    CHECK(state.messages.pinned_error() == nullptr);  // A dismissed error does not come back.
  }

  TEST_CASE("clearing the list also dismisses the pinned error") {
    MessageLog log;
    log.add(Severity::Error, "cannot import: x.map:4: unknown map character 'X'");
    log.add(Severity::Info, "opened y.json");
    REQUIRE(log.pinned_error());
    log.clear();
    CHECK(log.empty());
    CHECK(log.pinned_error() == nullptr);
    log.add(Severity::Error, "again");
    REQUIRE(log.pinned_error());
    CHECK(log.pinned_error()->text == "again");
  }
}
