// Recherche en français, écrite pour Noyaux : placée par le crochet MkDocs (recherche.py) en tête
// du script de recherche de Material, qui tourne dans un Worker (ou dans l'iframe qui le
// remplace en file://).
//
// L'index est racinisé par lunr et le raciniseur français de lunr-languages (mkdocs.yml :
// plugins.search.pipeline) : « registres », « registre » deviennent « registr ». Mais Material
// ajoute « * » à chaque mot de la requête, et lunr ne racinise pas un mot qui porte un joker :
// « registres* » ne trouverait pas « registr ». On racinise donc chaque mot ici, avec le même
// découpage et le même raciniseur que l'index, avant que le script de Material reçoive la
// requête ; « registr* » trouve alors toutes les flexions. Les mots qui portent un opérateur de
// lunr (+, -, *, ~, ^, :, guillemets) restent tels quels.
//
// Les mots vides (« de », « la », « du »…) sont retirés de la requête, comme le filtre de
// l'index (pipeline: stopWordFilter) les a retirés des pages : ils n'y trouveraient rien
// d'exact, et, avec le joker de Material, « de* » trouverait « dépendance » ou « déborder »
// (« Multiprocesseur de flux » menait alors à la fiche du PDL avant celle du SM).
//
// Les mots de trois lettres au plus ne sont racinisés ni dans l'index ni dans la requête : ce
// sont surtout des sigles (« SMs » n'est pas le pluriel de « SM » qu'en ferait le raciniseur, et
// la fiche qui le porte doit rester la première trouvée par « SM »).
(function () {
  "use strict";

  const SHORTEST_STEMMED = 4;

  // Le raciniseur français, enregistré par lunr.fr.min.js sous le nom « stemmer-fr », remplacé
  // au moment où il s'enregistre (avant que l'index soit construit) par le même qui épargne
  // les mots courts : l'index et la requête s'en servent tous deux.
  function guardStemmer(lunr) {
    const register = lunr.Pipeline.registerFunction;
    lunr.Pipeline.registerFunction = function (fn, label) {
      if (label === "stemmer-fr" && lunr.fr && lunr.fr.stemmer === fn) {
        const guarded = (token, ...rest) =>
          token.toString().length < SHORTEST_STEMMED ? token : fn(token, ...rest);
        lunr.fr.stemmer = guarded;
        return register.call(this, guarded, label);
      }
      return register.call(this, fn, label);
    };
  }

  function stemWord(lunr, word) {
    const token = lunr.fr.stemmer(new lunr.Token(word.toLowerCase(), {}));
    const stem = token ? token.toString() : "";
    return stem || word;
  }

  function isStopWord(lunr, word) {
    return !lunr.fr.stopWordFilter(new lunr.Token(word.toLowerCase(), {}));
  }

  function stemQuery(query) {
    const lunr = self.lunr;
    // Le raciniseur n'est chargé qu'à l'initialisation de l'index : avant, rien ne change.
    if (!lunr || !lunr.fr || !lunr.fr.stemmer) return query;
    const separator = lunr.tokenizer.separator;
    const words = (part) => part.split(separator).filter(Boolean);
    // Une requête faite seulement de mots vides est laissée entière : mieux vaut un résultat
    // approché que rien.
    const plain = query.split(/\s+/).filter((part) => part && !/^[+-]|[*~^:"]/.test(part));
    const dropStopWords = plain.flatMap(words).some((word) => !isStopWord(lunr, word));
    return query.split(/(\s+)/).map((part) => {
      if (!part.trim() || /^[+-]|[*~^:"]/.test(part)) return part;
      return words(part)
        .filter((word) => !(dropStopWords && isStopWord(lunr, word)))
        .map((word) => stemWord(lunr, word)).join(" ");
    }).join("").replace(/\s+/g, " ").trim();
  }

  // Inscrit avant celui de Material : il voit chaque message en premier. Seule la requête
  // (message dont la donnée est une chaîne) est modifiée.
  let guarded = false;
  addEventListener("message", (event) => {
    // Le premier message (l'initialisation) arrive quand lunr est chargé, avant lunr.fr.
    if (!guarded && self.lunr) {
      guardStemmer(self.lunr);
      guarded = true;
    }
    const message = event.data;
    if (message && typeof message.data === "string") message.data = stemQuery(message.data);
  });
})();
