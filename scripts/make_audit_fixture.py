"""Generate memoryd/commands/bench/data/audit_planted.json: an agent's archive with planted problems.

Deterministic (seeded). Ordinary memories come from varied templates and free sentences; into
them are planted exact duplicates, restatements (a different case or punctuation, or one word
swapped for a synonym), contradictions (a changed number, date, name or negation), stale
memories (old, never used) and clutter. The ground truth lists each planted group with its kind.
Ordinary memories that look alike (the same template) are left in on purpose: they are what the
rules' precision is measured against. Run: python scripts/make_audit_fixture.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "memoryd" / "bench" / "data" / "audit_planted.json"

NAMES = [
    "Priya",
    "Marco",
    "Aiko",
    "Tomasz",
    "Lena",
    "Kwame",
    "Sofia",
    "Rahul",
    "Ingrid",
    "Mateo",
    "Yusuf",
    "Chloe",
    "Dmitri",
    "Amara",
    "Jonas",
    "Mei",
    "Oskar",
    "Leila",
    "Hugo",
    "Nadia",
    "Felix",
    "Zara",
]
TEAMS = ["search", "billing", "mobile", "data platform", "support tooling", "growth", "security", "design systems"]
CITIES = ["Lisbon", "Oslo", "Nairobi", "Osaka", "Montreal", "Krakow", "Bogota", "Pune", "Tallinn", "Adelaide"]
SERVICES = ["checkout", "ledger", "notifications", "search-indexer", "auth", "reporting", "media-resizer", "webhooks"]
REGIONS = ["eu-west-1", "us-east-2", "ap-south-1", "eu-central-1", "sa-east-1"]
PROJECTS = ["Atlas", "Borealis", "Cobalt", "Dune", "Ember", "Fjord", "Granite", "Harbor", "Iris", "Juniper"]
COMPANIES = ["Northwind", "Globex", "Initech", "Umbrella Foods", "Stark Logistics", "Wayne Textiles", "Acme Tools"]
PLANS = ["starter", "team", "business", "enterprise"]
FOODS = ["peanuts", "shellfish", "gluten", "lactose", "sesame", "kiwi"]
MEETINGS = ["planning meeting", "design review", "incident review", "customer sync", "team retro"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "September", "October", "November"]
FREE = [
    "The office wifi password changes on the first day of every quarter",
    "Deploys are frozen during the last week of December",
    "The staging database is refreshed from production every Sunday night",
    "Customer refunds over the threshold go through the finance queue",
    "The mobile app supports dark mode since version four",
    "Support tickets tagged urgent page the on-call engineer",
    "The user likes short answers with code examples",
    "The user writes Python at work and Rust for fun",
    "The user is preparing a talk about observability",
    "Invoices are sent as PDF attachments, never as links",
    "The design team uses Figma for every mockup",
    "Feature flags older than ninety days are reviewed monthly",
    "The user's cat knocks the laptop off the desk every morning",
    "The user is learning to play the cello",
    "The data warehouse keeps raw events for thirteen months",
    "Pull requests need two approvals before merging",
    "The user prefers meetings in the afternoon",
    "The marketing site is built with a static site generator",
    "Error budgets are reviewed at the end of each sprint",
    "The user travels by train whenever the trip is under six hours",
    "Backups are encrypted with keys kept in the hardware security module",
    "The user dislikes long email threads and prefers a quick call",
    "The legal team must approve any new data processor",
    "The user runs a half marathon every spring",
    "New hires get a laptop and a buddy on their first day",
    "The public API is versioned in the URL path",
    "The user's favourite editor is Neovim with a minimal config",
    "Latency dashboards live in the shared Grafana folder",
    "The user keeps a reading list of distributed systems papers",
    "The support chatbot hands over to a person after two failed answers",
    "Load tests run against a copy of the checkout service",
    "The user volunteers at a food bank on Saturdays",
    "Accessibility audits happen before every major release",
    "The user has a standing desk and a balance board",
    "Customer data never leaves the region it was collected in",
    "The user is saving for a trip to Patagonia",
    "Dependency updates are batched into a weekly pull request",
    "The user cannot attend meetings before nine because of school drop-off",
    "Incident postmortems are blameless and published internally",
    "The user wants reminders a day before every deadline",
]  # fmt: skip
CLUTTER = [
    "thanks!", "ok", "lol", "hi there", "sure, sounds good", "bye", "haha yes", "and then",
    '[{"tool": "search", "status": 200, "hits": []}]',
    "Traceback (most recent call last): File \"agent.py\", line 12, in run",
    "{}", "...", "great thanks", "hmm", "<<<>>> ### ---- ::::",
]  # fmt: skip
SYNONYMS = [("leads", "runs"), ("prefers", "likes"), ("runs on", "is hosted on"), ("ships", "launches"),
            ("pays", "is billed"), ("is allergic to", "has an allergy to")]  # fmt: skip


def ordinary(rng: random.Random) -> list[str]:
    """Distinct ordinary facts from several templates, plus the free sentences.

    Each fact has its own subject (a company's price, a project's date, a meeting's time are stated
    once): two ordinary facts about one subject would be contradictions nobody planted.
    """
    facts: dict[tuple[str, str], str] = {}
    subjects: dict[str, set[str]] = {}

    def once(kind: str, subject: str, text: str) -> None:
        if subject not in subjects.setdefault(kind, set()):
            subjects[kind].add(subject)
            facts[(kind, subject)] = text

    while len(facts) < 200:
        name, kind = rng.choice(NAMES), rng.randrange(8)
        if kind == 0:
            team, city = rng.choice(TEAMS), rng.choice(CITIES)
            once("leads", name + team, f"{name} leads the {team} team in {city}")
        elif kind == 1:
            drink = rng.choice(["green tea", "espresso", "oat latte", "sparkling water"])
            once("prefers", name, f"{name} prefers {drink} in the {rng.choice(['morning', 'afternoon', 'evening'])}")
        elif kind == 2:
            service = rng.choice(SERVICES)
            where = rng.choice(["Kubernetes", "bare metal", "Lambda"])
            once("service", service, f"The {service} service runs on {where} in {rng.choice(REGIONS)}")
        elif kind == 3:
            project = rng.choice(PROJECTS)
            once("project", project, f"The {project} project ships on {rng.randint(1, 28)} {rng.choice(MONTHS)}")
        elif kind == 4:
            company = rng.choice(COMPANIES)
            once(
                "pays",
                company,
                f"{company} pays {rng.randrange(200, 9000, 50)} euros per month for the {rng.choice(PLANS)} plan",
            )
        elif kind == 5:
            food = rng.choice(FOODS)
            once("allergy", name + food, f"{name} is allergic to {food}")
        elif kind == 6:
            meeting = rng.choice(MEETINGS)
            once("meeting", meeting, f"The weekly {meeting} is on {rng.choice(DAYS)} at {rng.randint(9, 17)}:00")
        elif len(subjects.get("expense", ())) < 3:  # a few tiers of one policy
            amount = rng.randrange(100, 5000, 100)
            once("expense", str(amount), f"Expense reports above {amount} euros need approval from {name}")
    return sorted(facts.values()) + FREE


def contradict(rng: random.Random, text: str) -> str | None:
    """The same fact with one marker changed: a number, a name, or a negation (None: no such change)."""
    words = text.split(" ")
    options = []
    numbers = [i for i, w in enumerate(words) if w.rstrip(":0").isdigit()]
    if numbers:
        i = rng.choice(numbers)
        old = words[i]
        value = int(old.split(":")[0])
        new = str(value % 20 + rng.randint(1, 3)) + (":00" if ":" in old else "") if value < 29 else str(value + 100)
        options.append(" ".join([*words[:i], new, *words[i + 1 :]]))
    # A changed name contradicts only where the fact has one answer: who approves, where a team sits.
    # (Another person's allergy or another project's date is a different fact, not a contradiction.)
    if " leads the " in text or " approval from " in text:
        pool = CITIES if words[-1] in CITIES else NAMES
        options.append(" ".join([*words[:-1], rng.choice([p for p in pool if p != words[-1]])]))
    for verb, negated in ((" is ", " is not "), (" prefers ", " no longer prefers "), (" has ", " does not have ")):
        if verb in text:
            options.append(text.replace(verb, negated, 1))
            break
    changed = [o for o in options if o != text]
    return rng.choice(changed) if changed else None


def restate(rng: random.Random, text: str, light: bool) -> str:
    """The same fact said again: a different case or punctuation, or (not light) one synonym."""
    if light:
        return rng.choice([text + ".", text.lower(), text + "!", "  " + text + " "]).strip() or text + "."
    for a, b in SYNONYMS:
        if f" {a} " in text:
            return text.replace(f" {a} ", f" {b} ", 1)
    return text + "."


def main() -> None:
    rng = random.Random(20261130)
    facts = ordinary(rng)
    rng.shuffle(facts)
    memories: list[dict[str, object]] = []
    truth: list[dict[str, object]] = []

    def add(content: str, **fields: object) -> str:
        key = f"m{len(memories):03d}"
        memories.append({
            "key": key,
            "content": content,
            "days_old": fields.get("days_old", rng.randint(0, 150)),
            "salience": fields.get("salience", round(rng.uniform(0.2, 0.9), 2)),
            "retrievals": fields.get("retrievals", rng.choice([0, 0, 1, 2, 3, 5, 8])),
        })  # fmt: skip
        return key

    pool = iter(facts)
    for _ in range(150):  # ordinary memories nobody should flag
        add(next(pool))
    for _ in range(10):  # old but used: not stale
        add(next(pool), days_old=rng.randint(200, 700), retrievals=rng.randint(1, 9))
    for _ in range(15):
        text = next(pool)
        truth.append({"kind": "duplicate", "members": [add(text), add(text)]})
    for i in range(12):
        text = next(pool)
        truth.append({"kind": "duplicate", "members": [add(text), add(restate(rng, text, light=i < 6))]})
    made = 0
    while made < 15:
        text = next(pool)
        changed = contradict(rng, text)
        if changed is None or changed == text:
            add(text)
            continue
        truth.append({"kind": "contradiction", "members": [add(text), add(changed)]})
        made += 1
    for _ in range(12):
        key = add(next(pool), days_old=rng.randint(200, 700), retrievals=0, salience=round(rng.uniform(0.05, 0.4), 2))
        truth.append({"kind": "stale", "members": [key]})
    for text in CLUTTER:
        truth.append({"kind": "clutter", "members": [add(text)]})
    for text in pool:  # whatever is left: more ordinary memories
        add(text)
    OUT.write_text(json.dumps({"memories": memories, "truth": truth}, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT}: {len(memories)} memories, {len(truth)} planted groups")


if __name__ == "__main__":
    main()
