// duizhao figures: open a figure in a lightbox (PhotoSwipe, served by the site itself).
// Material's instant navigation swaps the page without reloading scripts, so the lightbox is
// rebuilt for every page that `document$` announces.
import PhotoSwipeLightbox from "./photoswipe/photoswipe-lightbox.esm.min.js";

let lightbox = null;

const GALLERY = ".md-content";
const CHILDREN = "a.dz-figure-zoom";

// The caption of the figure shown at `index` (slides follow the links' order in the page).
function captionOf(index) {
  const link = document.querySelectorAll(`${GALLERY} ${CHILDREN}`)[index];
  const caption = link && link.closest("figure")?.querySelector("figcaption");
  return caption ? caption.innerHTML : "";
}

function setup() {
  if (lightbox) {
    lightbox.destroy();
    lightbox = null;
  }
  if (!document.querySelector(`${GALLERY} ${CHILDREN}`)) return;
  lightbox = new PhotoSwipeLightbox({
    gallery: GALLERY,
    children: CHILDREN,
    pswpModule: () => import("./photoswipe/photoswipe.esm.min.js"),
    bgOpacity: 0.92,
    closeTitle: "关闭",
    zoomTitle: "缩放",
    arrowPrevTitle: "上一幅",
    arrowNextTitle: "下一幅",
    errorMsg: "图片无法加载",
  });
  lightbox.on("uiRegister", () => {
    lightbox.pswp.ui.registerElement({
      name: "dz-caption",
      order: 9,
      isButton: false,
      appendTo: "root",
      onInit: (el, pswp) => {
        el.classList.add("pswp__dz-caption");
        // The first slide may be set before this element exists: fill it now and on changes.
        const update = () => {
          el.innerHTML = captionOf(pswp.currIndex);
        };
        pswp.on("change", update);
        pswp.on("afterInit", update);
        update();
      },
    });
  });
  lightbox.init();
  // Until this module has run, a click on a figure opens its image as a plain link. The mark
  // says the lightbox is bound to this page's figures (tests and site scripts may wait on it).
  document.querySelector(GALLERY).dataset.dzLightbox = "ready";
}

if (window.document$) {
  window.document$.subscribe(setup);
} else {
  setup();
}
