// Recherche du site ouvert depuis le disque (file://), écrit pour Noyaux.
//
// Chromium refuse un Worker chargé depuis file:// ; la recherche de Material tourne dans un
// Worker. Le plugin « offline » de Material ajouterait pour cela un script pris sur unpkg.com,
// donc une requête externe : le nom de ce fichier contient « iframe-worker », ce qui l'en
// empêche (material/plugins/offline/plugin.py), et ce script le remplace.
//
// Le principe est celui qu'attend le script de recherche de Material : le Worker tourne dans un
// iframe caché ; la page lui parle par des événements « message » ; importScripts charge les
// scripts un à un et rend une promesse, que le script de recherche attend. Sous http://, rien
// ne change.
(function () {
  "use strict";
  if (location.protocol !== "file:") return;

  class IFrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.onerror = null;
      this.queue = [];
      this.frame = document.createElement("iframe");
      this.frame.hidden = true;
      this.frame.title = "recherche hors ligne";
      document.body.appendChild(this.frame);
      const scope = this.frame.contentWindow;
      const worker = this;
      // Dans l'iframe, « postMessage » renvoie vers la page, et importScripts charge des
      // scripts : aucun accès réseau, seulement des fichiers du site.
      scope.postMessage = (data) => worker.emit("message", data);
      scope.importScripts = (...urls) => urls.reduce(
        (previous, next) => previous.then(() => load(scope.document, next)), Promise.resolve());
      // Le script de recherche déduit le dossier de lunr du premier script[src] de l'iframe.
      load(scope.document, new URL(url, location.href).href).then(() => {
        const pending = this.queue;
        this.queue = null;
        pending.forEach((data) => this.deliver(data));
      }, (error) => this.emit("error", error));
    }

    postMessage(data) {
      if (this.queue) this.queue.push(data);
      else this.deliver(data);
    }

    deliver(data) {
      const scope = this.frame.contentWindow;
      scope.dispatchEvent(new scope.MessageEvent("message", { data }));
    }

    emit(type, data) {
      const event = type === "message" ? new MessageEvent("message", { data })
                                       : new ErrorEvent("error", { message: String(data) });
      const handler = type === "message" ? this.onmessage : this.onerror;
      if (handler) handler.call(this, event);
      this.dispatchEvent(event);
    }

    terminate() {
      this.frame.remove();
    }
  }

  function load(doc, src) {
    return new Promise((resolve, reject) => {
      const script = doc.createElement("script");
      script.src = src;
      script.onload = () => resolve();
      script.onerror = () => reject(new Error(`script introuvable : ${src}`));
      (doc.head || doc.documentElement).appendChild(script);
    });
  }

  window.IFrameWorker = IFrameWorker;
  window.Worker = IFrameWorker;
})();
