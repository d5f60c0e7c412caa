#!/usr/bin/env python3
"""Parcourt le site construit dans un vrai navigateur (Chromium sans écran, via Selenium).

Le site est servi sur 127.0.0.1 par http.server ; Chromium ne peut résoudre aucun autre
nom d'hôte. Vérifie :
  a. l'accueil en français (langue, titre, champ de recherche, onglets) ;
  b. la recherche, qui doit trouver une page à partir d'une forme fléchie (« lancements »
     alors que la page dit « lancement ») ;
  c. l'encadré « Exemple compilable » et ses trois liens ;
  d. qu'aucune requête ne quitte 127.0.0.1 et que la console reste sans erreur ;
  e. les captures d'écran (accueil.png, recherche.png, exemple.png).

Codes de sortie : 0 tout passe, 1 au moins une vérification échoue, 2 environnement
incomplet (site non construit, Chromium ou chromedriver absent).

    python tests/browser/test_navigateur.py --site build/site --captures build/captures
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urljoin, urlsplit

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# Tout ce qui pourrait joindre un service de Google ou un autre hôte est coupé ;
# la règle de résolution fait échouer tout nom autre que 127.0.0.1.
CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--no-first-run", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-default-apps", "--disable-extensions",
    "--disable-domain-reliability", "--disable-client-side-phishing-detection",
    "--metrics-recording-only", "--no-pings", "--no-proxy-server",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--window-size=1280,1000",
]
TABS = ["Accueil", "Ressources", "GEMM", "Megakernels", "Glossaire", "Exemples"]
GRID_STRIDE = "ressources/boucle-grid-stride.html"
EXAMPLE_DIR = "examples/ressources/01-boucle-grid-stride"
# Formes absentes du site, présentes sur la page sous une autre flexion :
# seul le radical (racinisation française de lunr) peut les faire correspondre.
SEARCHES = {"lancements": "lancement", "débordements": "débordement"}
INTERNAL_SCHEMES = {"data", "blob", "about", "chrome"}
WAIT_S = 10
MIN_PNG_BYTES = 10_000

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError as error:
    sys.exit(f"test_navigateur : Selenium introuvable ({error}) : lancez ./ci/setup")


class SetupError(Exception):
    """Environnement incomplet : le test ne peut pas commencer (code 2)."""


@dataclass
class Session:
    driver: webdriver.Chrome
    base: str                      # http://127.0.0.1:PORT/
    site: Path
    captures: Path
    requests: list[tuple[str, str]] = field(default_factory=list)  # (page, URL demandée)
    console: list[tuple[str, str]] = field(default_factory=list)   # (page, message SEVERE)

    def drain_logs(self, page: str) -> None:
        """Relève les journaux du navigateur (ils se vident à chaque lecture)."""
        for entry in self.driver.get_log("performance"):
            event = json.loads(entry["message"])["message"]
            if event["method"] == "Network.requestWillBeSent":
                self.requests.append((page, event["params"]["request"]["url"]))
        for entry in self.driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                self.console.append((page, entry["message"]))

    def visit(self, page: str) -> None:
        self.driver.get(urljoin(self.base, page))
        self.drain_logs(page)

    def capture(self, name: str) -> None:
        self.driver.save_screenshot(str(self.captures / name))


# --- Serveur et navigateur ----------------------------------------------------------

@contextmanager
def serve(site: Path):
    handler = functools.partial(QuietHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)  # port 0 : un port libre
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (signature imposée)
        pass


@contextmanager
def chromium():
    # Chemins explicites : Selenium Manager n'est pas lancé ; SE_OFFLINE lui interdirait
    # de toute façon de télécharger un pilote s'il l'était.
    os.environ["SE_OFFLINE"] = "true"
    with tempfile.TemporaryDirectory(prefix="noyaux-chromium-", ignore_cleanup_errors=True) as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}"]:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        try:
            driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)),
                                      options=options)
        except WebDriverException as error:
            raise SetupError(f"Chromium ne démarre pas : {error.msg}") from error
        driver.set_page_load_timeout(30)
        try:
            yield driver
        finally:
            driver.quit()


def fetch_status(url: str) -> tuple[int, str]:
    """Code HTTP et corps, sans passer par un éventuel mandataire de l'environnement."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=WAIT_S) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""


# --- Vérifications : chacune rend (problèmes, résumé) ----------------------------------

def check_home(s: Session) -> tuple[list[str], str]:
    s.visit("index.html")
    s.capture("accueil.png")
    driver, problems = s.driver, []
    lang = driver.find_element(By.TAG_NAME, "html").get_attribute("lang")
    if lang != "fr":
        problems.append(f"<html lang> vaut « {lang} », attendu « fr »")
    if "Noyaux" not in driver.title:
        problems.append(f"le titre « {driver.title} » ne contient pas « Noyaux »")
    placeholder = driver.find_element(By.CSS_SELECTOR, "input.md-search__input").get_attribute("placeholder")
    if placeholder != "Rechercher":
        problems.append(f"le champ de recherche affiche « {placeholder} », attendu « Rechercher »")
    tabs = [link.text.strip() for link in driver.find_elements(By.CSS_SELECTOR, ".md-tabs__link")]
    missing = [tab for tab in TABS if tab not in tabs]
    if missing:
        problems.append(f"onglets manquants : {', '.join(missing)} (trouvés : {', '.join(tabs)})")
    return problems, f"accueil en français : lang=fr, titre « {driver.title} », onglets {' · '.join(tabs)}"


def search(s: Session, query: str) -> tuple[str, list[str]]:
    """Tape la requête touche par touche ; rend le texte du compteur et les liens trouvés."""
    driver = s.driver
    field_ = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    field_.click()
    field_.clear()
    meta = driver.find_element(By.CSS_SELECTOR, ".md-search-result__meta")
    # Tant que l'index n'est pas chargé, le compteur dit « Initialisation de la recherche ».
    WebDriverWait(driver, WAIT_S).until(lambda _: "Initialisation" not in meta.text)
    for key in query:
        field_.send_keys(key)
    WebDriverWait(driver, WAIT_S).until(lambda _: "trouvé" in meta.text)
    links = [a.get_attribute("href") for a in
             driver.find_elements(By.CSS_SELECTOR, ".md-search-result__list a.md-search-result__link")]
    s.drain_logs(f"recherche « {query} »")
    return meta.text, links


def check_search(s: Session) -> tuple[list[str], str]:
    s.visit("index.html")
    problems, found = [], []
    target = urlsplit(urljoin(s.base, GRID_STRIDE)).path
    for query, form_on_page in SEARCHES.items():
        meta, links = search(s, query)
        if any(urlsplit(link).path == target for link in links):
            found.append(f"« {query} » ({meta})")
        else:
            problems.append(f"la recherche « {query} » ne trouve pas {GRID_STRIDE}, dont le texte "
                            f"dit « {form_on_page} » ; compteur « {meta} », liens : {links or 'aucun'}")
        if query == next(iter(SEARCHES)):
            s.capture("recherche.png")
    return problems, f"recherche par forme fléchie : {', '.join(found)} → {GRID_STRIDE}"


def check_example_box(s: Session) -> tuple[list[str], str]:
    s.visit(GRID_STRIDE)
    s.capture("exemple.png")
    boxes = s.driver.find_elements(By.CSS_SELECTOR, "aside.noyaux-exemple")
    if not boxes:
        return [f"{GRID_STRIDE} : encadré « Exemple compilable » (aside.noyaux-exemple) absent"], ""
    box, problems = boxes[0], []
    if EXAMPLE_DIR not in box.text:
        problems.append(f"l'encadré ne montre pas le dossier {EXAMPLE_DIR} : « {box.text} »")
    links = {a.text.strip(): a.get_attribute("href") for a in box.find_elements(By.TAG_NAME, "a")}
    for label in ("sources", "README", "référence de l'API"):
        url = links.get(label)
        if url is None:
            problems.append(f"lien « {label} » absent de l'encadré (liens : {', '.join(links)})")
            continue
        status, body = fetch_status(url)
        anchor = urlsplit(url).fragment
        if status != 200:
            problems.append(f"lien « {label} » → {url} : HTTP {status}")
        elif anchor and f'id="{anchor}"' not in body:
            problems.append(f"lien « {label} » → {url} : ancre #{anchor} absente de la page")
    if links.get("référence de l'API"):
        # Visitée aussi dans le navigateur, pour que ses requêtes soient contrôlées en (d).
        s.visit(links["référence de l'API"])
    return problems, f"encadré « Exemple compilable » : {EXAMPLE_DIR}, 3 liens en HTTP 200"


def math_page(site: Path) -> str | None:
    """Première page (hors référence API) qui contient une formule, s'il y en a une."""
    for path in sorted(site.rglob("*.html")):
        relative = path.relative_to(site).as_posix()
        if not relative.startswith("api/") and 'class="arithmatex"' in path.read_text("utf-8"):
            return relative
    return None


def check_network(s: Session) -> tuple[list[str], str]:
    s.visit("exemples/index.html")
    maths = math_page(s.site)
    if maths:
        s.visit(maths)
    s.drain_logs("fin du parcours")
    allowed = urlsplit(s.base).netloc
    offenders = [f"{page} : {url}" for page, url in s.requests
                 if urlsplit(url).scheme not in INTERNAL_SCHEMES and urlsplit(url).netloc != allowed]
    problems = [f"requête hors de {allowed} — {line}" for line in offenders]
    problems += [f"erreur de console — {page} : {message}" for page, message in s.console]
    pages = len({page for page, _ in s.requests})
    note = f"page à formules {maths}" if maths else "aucune page à formules dans le site"
    return problems, (f"réseau : {len(s.requests)} requêtes sur {pages} pages, toutes vers {allowed} ; "
                      f"console sans erreur ; {note}")


def check_captures(s: Session) -> tuple[list[str], str]:
    problems, sizes = [], []
    for name in ("accueil.png", "recherche.png", "exemple.png"):
        path = s.captures / name
        if not path.is_file():
            problems.append(f"capture {path} absente")
            continue
        data = path.read_bytes()
        if not data.startswith(b"\x89PNG\r\n\x1a\n") or len(data) <= MIN_PNG_BYTES:
            problems.append(f"capture {path} : pas un PNG ou trop petite ({len(data)} octets)")
        sizes.append(f"{name} {len(data) // 1024} kio")
    return problems, f"captures dans {s.captures} : {', '.join(sizes)}"


CHECKS = [
    ("a. accueil", check_home),
    ("b. recherche", check_search),
    ("c. encadré", check_example_box),
    ("d. réseau et console", check_network),
    ("e. captures", check_captures),
]


# --- Programme --------------------------------------------------------------------------

def run_checks(s: Session) -> list[str]:
    failures = []
    for name, check in CHECKS:
        started = time.monotonic()
        try:
            problems, summary = check(s)
        except WebDriverException as error:
            # Une attente expirée ou un élément introuvable : on passe à la suite.
            problems, summary = [f"{type(error).__name__} : {error.msg or error}"], ""
        elapsed = time.monotonic() - started
        if problems:
            failures += [f"{name} : {problem}" for problem in problems]
        else:
            print(f"OK {name} ({elapsed:.1f} s) — {summary}")
    return failures


def check_setup(site: Path) -> None:
    if not (site / "index.html").is_file():
        raise SetupError(f"site non construit : {site / 'index.html'} absent "
                         "(cmake --build build --target site)")
    for program, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(program, os.X_OK):
            raise SetupError(f"{program} absent : installez le paquet Debian {package}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True, help="dossier du site construit")
    parser.add_argument("--captures", type=Path, required=True, help="dossier des captures PNG")
    args = parser.parse_args()
    started = time.monotonic()
    try:
        check_setup(args.site)
        args.captures.mkdir(parents=True, exist_ok=True)
        with serve(args.site.resolve()) as base, chromium() as driver:
            failures = run_checks(Session(driver, base, args.site.resolve(), args.captures))
    except SetupError as error:
        print(f"test_navigateur : {error}", file=sys.stderr)
        return 2
    if failures:
        print(f"ÉCHEC : {len(failures)} problème(s) :", *failures, sep="\n  ", file=sys.stderr)
        return 1
    print(f"Toutes les vérifications passent ({time.monotonic() - started:.1f} s).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
