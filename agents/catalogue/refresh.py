#!/usr/bin/env python3
"""Rebuilds ai-robots.tsv from ai.robots.txt's robots.json (MIT licence,
LICENSE-ai.robots.txt beside this file).

Usage: refresh.py [robots.json]   (default: fetch it from GitHub; needs the internet)

Each line of the output: name, operator, purpose, url, tab-separated. The
purpose is one of robowatch's words, read from the list's "function" text.
Builds and tests never run this; they read the file it writes."""
import json, re, sys, urllib.request, os

SRC = "https://raw.githubusercontent.com/ai-robots-txt/ai.robots.txt/main/robots.json"

def purpose(function, description):
    f = (function + " " + description).lower()
    if "assistant" in f or "user-initiated" in f or "on behalf of" in f:
        return "ai-assistant"
    if "search" in f:
        return "ai-search"
    if "train" in f or "scrap" in f or "dataset" in f or "llm" in f or "language model" in f:
        return "ai-training"
    return "other"

def clean(s):
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)  # markdown links: their text
    return " ".join(s.replace("\t", " ").split())[:120]

def operator(text):
    """The operator's name: the list's text up to where it starts saying
    what the robot does ("Cohere to download training data …", "Amazon,
    used for …", "Naget Inc (founded by …)"); nothing for "Unclear at this
    time.", "Anyone who downloads …" or a bare URL."""
    op = clean(text)
    op = re.split(r",| \(| that | to | used | who ", op, maxsplit=1)[0].strip()
    if op.lower().startswith(("unclear", "anyone", "http://", "https://")):
        return ""
    return op

def url_of(*texts):
    for t in texts:
        m = re.search(r"https?://[^\s)\]]+", t)
        if m:
            return m.group(0).rstrip(".,")
    return ""

def main():
    if len(sys.argv) > 1:
        data = json.load(open(sys.argv[1]))
    else:
        data = json.load(urllib.request.urlopen(SRC))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ai-robots.tsv")
    with open(out, "w") as f:
        f.write("# name\toperator\tpurpose\turl — from ai.robots.txt robots.json (MIT); rebuilt by refresh.py\n")
        for name, v in sorted(data.items(), key=lambda kv: kv[0].lower()):
            if not re.fullmatch(r"[A-Za-z0-9._-]+", name):
                continue
            op = operator(v.get("operator", ""))
            f.write("\t".join([name, op, purpose(v.get("function", ""), v.get("description", "")),
                               url_of(v.get("operator", ""), v.get("description", ""))]) + "\n")
    print("wrote", out)

if __name__ == "__main__":
    main()
