#!/usr/bin/env python3
"""Parcourt le site construit dans un vrai navigateur (Chromium sans écran, via Selenium).

Le site est servi sur 127.0.0.1 par http.server ; Chromium ne peut résoudre aucun autre
nom d'hôte. Vérifie :
  a. l'accueil en français (langue, titre, champ de recherche, onglets) ;
  b. la recherche, qui doit trouver une page à partir d'une autre flexion d'un mot
     (« affaires » alors que la page dit « affaire ») ; racinisation française : une forme
     absente de tout le site (« coalesçaient », « débordaient ») trouve la fiche du glossaire
     qui dit « coalescence », « débordement », parmi les trois premières pages ;
  c. l'encadré « Exemple compilable » et ses trois liens ; sur une page qui nomme plusieurs
     exemples (la synthèse GEMM), un seul tableau, une ligne et trois liens par exemple ;
  d. qu'aucune requête ne quitte 127.0.0.1 (pages, workers, navigateur lui-même) et que
     la console reste sans erreur ;
  e. les captures d'écran (accueil.png, recherche.png, exemple.png, exemples.png,
     glossaire.png) ;
  f. le glossaire : la recherche trouve une fiche par son nom français, son nom anglais, son
     abréviation et une forme fléchie ; sur une page d'une autre partie (GEMM), la première
     mention d'un terme est un lien vers sa fiche, dont l'infobulle montre la définition ;
  g. le site ouvert depuis le disque (file://, plugin offline) : pages et recherche marchent,
     racinisation comprise.

Codes de sortie : 0 tout passe, 1 au moins une vérification échoue, 2 environnement
incomplet (site non construit, Selenium, Chromium ou chromedriver absent).

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

try:
    import yaml
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError as error:
    print(f"test_navigateur : Selenium ou PyYAML introuvable ({error}) : lancez ./ci/setup",
          file=sys.stderr)
    sys.exit(2)

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# Services d'arrière-plan coupés autant que Chromium le permet ; la règle de résolution
# fait échouer tout nom d'hôte autre que 127.0.0.1 : ce qui s'obstine ne sort pas (vérifié
# en d sur le journal réseau de Chromium).
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
# Requête → forme présente sur la page. Les requêtes n'apparaissent nulle part dans le
# site : seule une recherche qui rapproche les flexions peut trouver la page.
SEARCHES = {"affaires": "affaire", "absurdes": "absurde"}
# Requête → (fiche, forme qu'elle contient). Ni la requête ni la requête sans son « s » final
# ne figurent dans le site (vérifié sur l'index) : seule la racinisation française de la
# requête et de l'index (tools/mkdocs/recherche_francaise.js) les rapproche.
STEMMED_SEARCHES = {
    "coalesçaient": ("glossaire/coalescence.html", "coalescence"),
    "débordaient": ("glossaire/pression-sur-les-registres.html", "débordement"),
}
INTERNAL_SCHEMES = {"data", "blob", "about", "chrome"}
CAPTURES = ["accueil.png", "recherche.png", "exemple.png", "exemples.png", "glossaire.png"]
# Une fiche du glossaire et ce qui doit la trouver dans la recherche : nom français, nom
# anglais, abréviation, forme fléchie (un alias au pluriel).
TERM_PAGE = "glossaire/multiprocesseur.html"
TERM_SOURCE = Path(__file__).resolve().parents[2] / "glossary" / "multiprocesseur.md"
TERM_SEARCHES = ["Multiprocesseur de flux", "Streaming Multiprocessor", "SM", "multiprocesseurs"]
# Page d'une autre partie où un terme du glossaire est mentionné dans la prose.
OTHER_PART_PAGE = "gemm/01-naif.html"
# Page qui nomme plusieurs exemples, et sa source (le nombre attendu de lignes du tableau).
SEVERAL_EXAMPLES = "gemm/synthese.html"
SEVERAL_EXAMPLES_SOURCE = Path(__file__).resolve().parents[2] / "docs" / "gemm" / "synthese.md"
WAIT_S = 10
MIN_PNG_BYTES = 10_000

# Compteur et liens de résultats lus d'un seul appel, pour ne tenir aucun élément périmé.
RESULTS_JS = """
const meta = document.querySelector(".md-search-result__meta").textContent.trim();
const links = document.querySelectorAll(".md-search-result__list a.md-search-result__link");
return [meta, Array.from(links, link => link.href)];
"""


class SetupError(Exception):
    """Environnement incomplet : le test ne peut pas commencer (code 2)."""


@dataclass
class Session:
    driver: webdriver.Chrome
    origin: str                    # http://127.0.0.1:PORT
    site: Path
    captures: Path
    netlog: Path                   # journal réseau de Chromium, complet une fois fermé
    requests: list[tuple[str, str]] = field(default_factory=list)  # (page, URL demandée)
    console: list[tuple[str, str]] = field(default_factory=list)   # (page, message SEVERE)

    def url(self, page: str) -> str:
        return urljoin(self.origin + "/", page)

    def is_local(self, url: str) -> bool:
        # file:// : le site ouvert depuis le disque (vérification g), rien d'autre du disque.
        return (urlsplit(url).scheme in INTERNAL_SCHEMES or url.startswith(self.origin + "/")
                or url.startswith(self.site.as_uri() + "/"))

    def drain_logs(self, page: str) -> int:
        """Relève les journaux du navigateur (chaque lecture les vide) ; rend leur nombre."""
        performance, browser = self.driver.get_log("performance"), self.driver.get_log("browser")
        for entry in performance:
            event = json.loads(entry["message"])["message"]
            if event["method"] == "Network.requestWillBeSent":
                self.requests.append((page, event["params"]["request"]["url"]))
        self.console += [(page, entry["message"])
                         for entry in browser if entry["level"] == "SEVERE"]
        return len(performance) + len(browser)

    def visit(self, page: str) -> None:
        self.driver.get(self.url(page))
        # Le favicon et d'autres requêtes partent après l'événement « load » : on relève
        # les journaux jusqu'à un silence de 0,3 s (3 s au plus).
        deadline = time.monotonic() + 3
        while self.drain_logs(page) and time.monotonic() < deadline:
            time.sleep(0.3)

    def capture(self, name: str) -> None:
        self.driver.save_screenshot(str(self.captures / name))


# --- Serveur et navigateur ---------------------------------------------------------------

class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (signature imposée)
        pass


@contextmanager
def serve(site: Path):
    handler = functools.partial(QuietHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)  # port 0 : un port libre
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def chromium(workdir: Path, netlog: Path):
    # Chemins explicites : Selenium Manager n'est pas lancé ; SE_OFFLINE lui interdirait
    # de toute façon de télécharger quoi que ce soit s'il l'était.
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={workdir / 'profil'}",
                                  f"--log-net-log={netlog}"]:
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


def fetch(url: str) -> tuple[int, str]:
    """Code HTTP et corps, sans passer par un éventuel mandataire de l'environnement."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=WAIT_S) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""


# --- Vérifications dans le navigateur : chacune rend (problèmes, résumé) -------------------

def check_home(s: Session) -> tuple[list[str], str]:
    s.visit("index.html")
    s.capture("accueil.png")
    driver, problems = s.driver, []
    lang = driver.find_element(By.TAG_NAME, "html").get_dom_attribute("lang")
    if lang != "fr":
        problems.append(f"<html lang> vaut « {lang} », attendu « fr »")
    if "Noyaux" not in driver.title:
        problems.append(f"le titre « {driver.title} » ne contient pas « Noyaux »")
    field_ = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    placeholder = field_.get_dom_attribute("placeholder")
    if placeholder != "Rechercher":
        problems.append(f"le champ de recherche affiche « {placeholder} », pas « Rechercher »")
    tabs = [link.text.strip() for link in driver.find_elements(By.CSS_SELECTOR, ".md-tabs__link")]
    missing = [tab for tab in TABS if tab not in tabs]
    if missing:
        problems.append(f"onglets manquants : {', '.join(missing)} (trouvés : {', '.join(tabs)})")
    return problems, f"lang=fr, titre « {driver.title} », onglets {' · '.join(tabs)}"


def search(s: Session, query: str) -> tuple[str, list[str]]:
    """Tape la requête touche par touche ; rend le texte du compteur et les liens trouvés."""
    driver = s.driver
    box = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    box.click()
    box.clear()
    # Tant que l'index n'est pas chargé, le compteur dit « Initialisation de la recherche ».
    WebDriverWait(driver, WAIT_S).until(
        lambda _: "Initialisation" not in driver.execute_script(RESULTS_JS)[0])
    for key in query:
        box.send_keys(key)
    # Material relance la recherche à chaque touche : on attend deux relevés identiques.
    last = None

    def settled(_):
        nonlocal last
        state, previous = driver.execute_script(RESULTS_JS), last
        last = state
        return state if state == previous and "trouvé" in state[0] else False

    meta, links = WebDriverWait(driver, WAIT_S, poll_frequency=0.5).until(settled)
    s.drain_logs(f"recherche « {query} »")
    return meta, links


def check_search(s: Session) -> tuple[list[str], str]:
    s.visit("index.html")
    problems, found = [], []
    target = urlsplit(s.url(GRID_STRIDE)).path
    for query, form_on_page in SEARCHES.items():
        meta, links = search(s, query)
        if query == next(iter(SEARCHES)):
            s.capture("recherche.png")
        if any(urlsplit(link).path == target for link in links):
            found.append(f"« {query} » ({meta})")
        else:
            # Material cherche « requête* » (un préfixe) : le pluriel ne trouve le singulier
            # que si la requête est racinisée comme l'index (recherche_francaise.js).
            problems.append(f"« {query} » ne trouve pas {GRID_STRIDE}, "
                            f"qui dit « {form_on_page} » (compteur « {meta} »)")
    indexed = indexed_text(s.site)
    for query, (page, form_on_page) in STEMMED_SEARCHES.items():
        absent = [q for q in (query, query.removesuffix("s")) if q in indexed]
        if absent:
            problems.append(f"« {absent[0]} » figure dans le site : choisissez une forme absente, "
                            "que seule la racinisation rapproche")
            continue
        meta, links = search(s, query)
        pages = list(dict.fromkeys(urlsplit(link).path for link in links))
        target = urlsplit(s.url(page)).path
        if target in pages[:3]:
            found.append(f"« {query} » → {page} (page {pages.index(target) + 1})")
        else:
            problems.append(f"« {query} » ne trouve pas {page}, qui dit « {form_on_page} », parmi "
                            f"les 3 premières pages (compteur « {meta} » ; {', '.join(pages[:5])})")
    return problems, f"{', '.join(found)} → {GRID_STRIDE}"


def indexed_text(site: Path) -> str:
    """Titres et textes de l'index de recherche, en minuscules."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    return " ".join(f"{doc['title']} {doc['text']}" for doc in index["docs"]).lower()


def check_example_box(s: Session) -> tuple[list[str], str]:
    s.visit(GRID_STRIDE)
    s.capture("exemple.png")
    boxes = s.driver.find_elements(By.CSS_SELECTOR, "aside.noyaux-exemple")
    if not boxes:
        return [f"{GRID_STRIDE} : pas d'encadré « Exemple compilable » (aside.noyaux-exemple)"], ""
    box, problems = boxes[0], []
    if EXAMPLE_DIR not in box.text:
        text = " ".join(box.text.split())
        problems.append(f"l'encadré ne montre pas le dossier {EXAMPLE_DIR} : « {text} »")
    links = {a.text.strip(): a.get_attribute("href") for a in box.find_elements(By.TAG_NAME, "a")}
    for label in ("sources", "README", "référence de l'API"):
        url = links.get(label)
        if url is None:
            problems.append(f"lien « {label} » absent de l'encadré (liens : {', '.join(links)})")
            continue
        status, body = fetch(url)
        anchor = urlsplit(url).fragment
        if status != 200:
            problems.append(f"lien « {label} » → {url} : HTTP {status}")
        elif anchor and f'id="{anchor}"' not in body:
            problems.append(f"lien « {label} » → {url} : ancre #{anchor} absente de la page")
    return problems, f"dossier {EXAMPLE_DIR}, liens {', '.join(links)} en HTTP 200"


def named_examples(page: Path) -> list[str]:
    """Les exemples que l'en-tête YAML de la page source nomme."""
    header = page.read_text(encoding="utf-8").split("---", 2)[1]
    return list(yaml.safe_load(header).get("exemples") or [])


def check_examples_table(s: Session) -> tuple[list[str], str]:
    expected = named_examples(SEVERAL_EXAMPLES_SOURCE)
    s.visit(SEVERAL_EXAMPLES)
    asides = s.driver.find_elements(By.CSS_SELECTOR, "aside.noyaux-exemple")
    if len(asides) != 1:
        return [f"{SEVERAL_EXAMPLES} : {len(asides)} encadrés au lieu d'un seul tableau"], ""
    s.driver.execute_script("arguments[0].scrollIntoView();", asides[0])
    s.capture("exemples.png")
    rows = asides[0].find_elements(By.CSS_SELECTOR, "table tbody tr")
    problems = []
    if len(rows) != len(expected):
        problems.append(f"{SEVERAL_EXAMPLES} : {len(rows)} lignes pour {len(expected)} exemples")
    for row, directory in zip(rows, expected):
        if directory.removeprefix("examples/") not in row.text:
            problems.append(f"ligne sans le dossier {directory} : « {' '.join(row.text.split())} »")
        links = [a.get_attribute("href") for a in row.find_elements(By.TAG_NAME, "a")]
        if len(links) != 3:
            problems.append(f"{directory} : {len(links)} liens au lieu de 3 (sources, README, API)")
        for url in links:
            status, _ = fetch(url)
            if status != 200:
                problems.append(f"{directory} : lien {url} : HTTP {status}")
    return problems, f"{SEVERAL_EXAMPLES} : un tableau, {len(rows)} exemples, liens en HTTP 200"


def term_header(source: Path) -> dict:
    return yaml.safe_load(source.read_text(encoding="utf-8").split("---", 2)[1])


def check_glossary_search(s: Session) -> tuple[list[str], str]:
    s.visit("index.html")
    problems, found = [], []
    target = urlsplit(s.url(TERM_PAGE)).path
    header = term_header(TERM_SOURCE)
    # Les requêtes viennent de la fiche : le test suit le glossaire s'il change.
    if header["abreviation"] not in TERM_SEARCHES or header["anglais"] not in TERM_SEARCHES:
        problems.append(f"{TERM_SOURCE} : anglais ou abréviation changés, mettez à jour TERM_SEARCHES")
    for query in TERM_SEARCHES:
        meta, links = search(s, query)
        # Une page revient une fois par section trouvée : le rang se compte en pages.
        pages = list(dict.fromkeys(urlsplit(link).path for link in links))
        if target in pages[:3]:
            found.append(f"« {query} » (page {pages.index(target) + 1})")
        else:
            problems.append(f"« {query} » ne trouve pas {TERM_PAGE} parmi les 3 premières pages "
                            f"(compteur « {meta} » ; {', '.join(pages[:5])})")
    return problems, f"{', '.join(found)} → {TERM_PAGE}"


def check_glossary_tooltip(s: Session) -> tuple[list[str], str]:
    s.visit(OTHER_PART_PAGE)
    links = s.driver.find_elements(By.CSS_SELECTOR, "article a.noyaux-terme")
    if not links:
        return [f"{OTHER_PART_PAGE} : aucun lien vers le glossaire (a.noyaux-terme)"], ""
    problems, link = [], links[0]
    href, title, word = link.get_attribute("href"), link.get_dom_attribute("title"), link.text
    slug = Path(urlsplit(href).path).stem
    source = TERM_SOURCE.parent / f"{slug}.md"
    if not source.is_file():
        return [f"« {word} » mène à {href}, qui n'est pas une fiche de glossary/"], ""
    status, body = fetch(href)
    if status != 200:
        problems.append(f"lien « {word} » → {href} : HTTP {status}")
    elif term_header(source)["terme"] not in body:
        problems.append(f"{href} ne porte pas le terme « {term_header(source)['terme']} »")
    # L'infobulle est la définition : la première phrase de la fiche, qui commence le corps.
    first_words = " ".join(source.read_text(encoding="utf-8").split("---", 2)[2].split()[:2])
    first_words = first_words.replace("*", "")
    if not title or not title.startswith(first_words):
        problems.append(f"infobulle de « {word} » : « {title} » ne commence pas comme la fiche "
                        f"(« {first_words} »)")
    # Titres et code ne reçoivent jamais de lien.
    misplaced = s.driver.find_elements(By.CSS_SELECTOR, "h1 a.noyaux-terme, h2 a.noyaux-terme, "
                                                        "code a.noyaux-terme, pre a.noyaux-terme")
    if misplaced:
        problems.append(f"{len(misplaced)} lien(s) du glossaire dans un titre ou du code")
    # Au survol, Material remplace l'attribut title par son infobulle.
    s.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    ActionChains(s.driver).move_to_element(link).perform()
    try:
        shown = WebDriverWait(s.driver, WAIT_S).until(lambda d: d.execute_script(
            "const tip = document.querySelector('.md-tooltip2--active, .md-tooltip--active');"
            "return tip && tip.textContent.trim();"))
        shown = " ".join(shown.split())
        if not shown.startswith(first_words):
            problems.append(f"l'infobulle affichée dit « {shown} »")
    except WebDriverException:
        problems.append(f"aucune infobulle affichée au survol de « {word} »")
        shown = ""
    s.capture("glossaire.png")
    return problems, (f"{OTHER_PART_PAGE} : « {word} » → {Path(urlsplit(href).path).name}, "
                      f"infobulle « {shown[:60]}… »")


def check_offline(s: Session) -> tuple[list[str], str]:
    """Le site ouvert depuis le disque, sans serveur : la recherche doit marcher aussi."""
    home = s.site / "index.html"
    s.driver.get(home.as_uri())
    s.drain_logs(home.as_uri())
    problems = []
    meta, links = search(s, TERM_SEARCHES[1])
    target = (s.site / TERM_PAGE).as_uri()
    # Les liens de résultat portent la requête (?h=…) et parfois une ancre.
    if urlsplit(target).path not in (urlsplit(link).path for link in links):
        problems.append(f"file:// : « {TERM_SEARCHES[1]} » ne trouve pas {target} ({meta})")
    else:
        s.driver.get(target)
        s.drain_logs(target)
        if "Multiprocesseur" not in s.driver.title:
            problems.append(f"file:// : {target} affiche « {s.driver.title} »")
    # La racinisation de la requête tourne aussi dans l'iframe qui remplace le Worker.
    s.driver.get(home.as_uri())
    query, (page, _) = next(iter(STEMMED_SEARCHES.items()))
    meta, links = search(s, query)
    stemmed_target = urlsplit((s.site / page).as_uri()).path
    if stemmed_target not in (urlsplit(link).path for link in links):
        problems.append(f"file:// : « {query} » ne trouve pas {page} ({meta})")
    return problems, f"{home.as_uri()} : recherche « {TERM_SEARCHES[1]} » ({meta}) → {TERM_PAGE}"


def math_page(site: Path) -> str | None:
    """Première page (hors référence API) qui contient une formule, s'il y en a une."""
    for path in sorted(site.rglob("*.html")):
        relative = path.relative_to(site).as_posix()
        if not relative.startswith("api/") and 'class="arithmatex"' in path.read_text("utf-8"):
            return relative
    return None


def check_page_requests(s: Session) -> tuple[list[str], str]:
    """Fin du parcours (catalogue, référence API, page à formules), puis bilan des pages."""
    s.visit(GRID_STRIDE)
    api = s.driver.find_element(By.CSS_SELECTOR, "aside.noyaux-exemple a[href*='api/']")
    api = api.get_attribute("href")  # adresse absolue, résolue par le navigateur
    pages = ["exemples/index.html", api.removeprefix(s.origin + "/")]
    maths = math_page(s.site)
    pages += [maths] if maths else []
    for page in pages:
        s.visit(page)
    problems = [f"requête hors de {s.origin} (relevée après {page}) : {url}"
                for page, url in s.requests if not s.is_local(url)]
    problems += [f"erreur de console (relevée après {page}) : {message}"
                 for page, message in s.console]
    served = sum(url.startswith(s.origin) for _, url in s.requests)
    note = f"page à formules {maths}" if maths else "aucune page à formules dans le site"
    return problems, (f"{served} requêtes des pages, toutes vers {s.origin}, "
                      f"console sans erreur ; {note}")


BROWSER_CHECKS = [
    ("a. accueil en français", check_home),
    ("b. recherche par flexion", check_search),
    ("c. encadré « Exemple compilable »", check_example_box),
    ("c. tableau des exemples d'une page qui en nomme plusieurs", check_examples_table),
    ("f. glossaire : recherche par nom français, anglais, abréviation", check_glossary_search),
    ("f. glossaire : lien et infobulle sur une page GEMM", check_glossary_tooltip),
    ("g. site ouvert depuis le disque, recherche comprise", check_offline),
    ("d. requêtes des pages et console", check_page_requests),
]


# --- Vérifications une fois Chromium fermé ---------------------------------------------------

def check_connections(s: Session) -> tuple[list[str], str]:
    """Journal réseau de Chromium : il voit aussi les workers et le navigateur lui-même."""
    log = json.loads(s.netlog.read_text("utf-8"))
    names = {number: name for name, number in log["constants"]["logEventTypes"].items()}
    problems, browser_hosts = [], set()
    for event in log["events"]:
        name, params = names[event["type"]], event.get("params", {})
        if name == "URL_REQUEST_START_JOB" and "url" in params and not s.is_local(params["url"]):
            if params.get("initiator") == s.origin:
                problems.append(f"requête du site hors de {s.origin} : {params['url']}")
            else:
                browser_hosts.add(urlsplit(params["url"]).hostname)
        elif name == "TCP_CONNECT_ATTEMPT" and "address" in params \
                and not params["address"].startswith("127.0.0.1:"):
            problems.append(f"connexion TCP vers {params['address']}")
        elif name == "UDP_BYTES_SENT":  # Chromium connecte des sockets UDP sans rien envoyer
            problems.append(f"datagramme UDP envoyé ({params})")
    summary = "aucune connexion hors de 127.0.0.1"
    if browser_hosts:
        hosts = ", ".join(sorted(browser_hosts))
        summary += f" ; hôtes tentés par Chromium lui-même, non résolus : {hosts}"
    return problems, summary


def check_captures(s: Session) -> tuple[list[str], str]:
    problems, sizes = [], []
    for name in CAPTURES:
        path = s.captures / name
        if not path.is_file():
            problems.append(f"capture {path} absente")
            continue
        data = path.read_bytes()
        if not data.startswith(b"\x89PNG\r\n\x1a\n") or len(data) <= MIN_PNG_BYTES:
            problems.append(f"capture {path} : pas un PNG ou trop petite ({len(data)} octets)")
        sizes.append(f"{name} {len(data) // 1024} kio")
    return problems, f"{s.captures} : {', '.join(sizes)}"


CLOSED_CHECKS = [
    ("d. connexions (journal réseau de Chromium)", check_connections),
    ("e. captures d'écran", check_captures),
]


# --- Programme --------------------------------------------------------------------------------

def run_checks(s: Session, checks) -> list[str]:
    failures = []
    for name, check in checks:
        started = time.monotonic()
        try:
            problems, summary = check(s)
        except (WebDriverException, OSError, ValueError) as error:
            # Attente expirée, élément introuvable, journal illisible : on passe à la suite.
            message = getattr(error, "msg", None) or error
            problems, summary = [f"{type(error).__name__} : {message}"], ""
        if problems:
            # Une même requête fautive revient sur chaque page : chaque problème une fois.
            failures += [f"{name} : {problem}" for problem in dict.fromkeys(problems)]
        else:
            print(f"OK {name} ({time.monotonic() - started:.1f} s) — {summary}")
    return failures


def check_setup(site: Path) -> None:
    if not (site / "index.html").is_file():
        raise SetupError(f"site non construit : {site / 'index.html'} absent "
                         "(cmake --build build --target site)")
    for program, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(program, os.X_OK):
            raise SetupError(f"{program} absent : installez le paquet Debian {package}")


def run(site: Path, captures: Path) -> list[str]:
    captures.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="noyaux-navigateur-",
                                     ignore_cleanup_errors=True) as tmp:
        workdir = Path(tmp)
        with serve(site) as origin:
            with chromium(workdir, workdir / "netlog.json") as driver:
                session = Session(driver, origin, site, captures, workdir / "netlog.json")
                failures = run_checks(session, BROWSER_CHECKS)
            # Chromium fermé : son journal réseau est complet.
            return failures + run_checks(session, CLOSED_CHECKS)


def main() -> int:
    global CHROMIUM, CHROMEDRIVER
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True, help="dossier du site construit")
    parser.add_argument("--captures", type=Path, required=True, help="dossier des captures PNG")
    parser.add_argument("--chromium", type=Path, default=CHROMIUM, help="programme Chromium")
    parser.add_argument("--chromedriver", type=Path, default=CHROMEDRIVER,
                        help="pilote WebDriver de Chromium")
    args = parser.parse_args()
    # Les chemins que CMake a trouvés (cmake/NoyauxDependances.cmake), s'il les donne.
    CHROMIUM, CHROMEDRIVER = args.chromium, args.chromedriver
    started = time.monotonic()
    try:
        check_setup(args.site)
        failures = run(args.site.resolve(), args.captures)
    except SetupError as error:
        print(f"test_navigateur : {error}", file=sys.stderr)
        return 2
    if failures:
        print(f"ÉCHEC : {len(failures)} problème(s)", *failures, sep="\n  ", file=sys.stderr)
        return 1
    print(f"Toutes les vérifications passent ({time.monotonic() - started:.1f} s).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
