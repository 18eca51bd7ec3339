"""Prints a SARIF log's version, rule table and results one per line, for FileCheck.
Usage: sarif_summary.py LOG ROOT, where rule pages are shown relative to ROOT."""
import json
import os
import sys
import urllib.parse
import urllib.request


def help_page(rule):
    """Where the rule's helpUri points, if it names a page that exists."""
    uri = urllib.parse.urlparse(rule.get("helpUri", ""))
    if uri.scheme != "file":
        return "no-help-page"
    path = urllib.request.url2pathname(uri.path)
    return "help " + os.path.relpath(path, sys.argv[2]) if os.path.isfile(path) else "help-missing"


log = json.load(open(sys.argv[1]))
print("version", log["version"])
run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
for rule in rules:
    print("rule", rule["id"], help_page(rule))
for result in run["results"]:
    where = result["locations"][0]["physicalLocation"]
    region = where["region"]
    name = os.path.basename(where["artifactLocation"]["uri"])
    # Clang's own errors have no rule in the table, as clang-tidy's clang-diagnostic-error.
    if "ruleIndex" not in result:
        index = "no-index"
    else:
        index = "index-ok" if rules[result["ruleIndex"]]["id"] == result["ruleId"] else "index-wrong"
    print("result", result["ruleId"], result["level"],
          f"{name}:{region['startLine']}:{region['startColumn']}", index)
