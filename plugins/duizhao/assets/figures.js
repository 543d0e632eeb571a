// duizhao figures: open a figure in a lightbox (PhotoSwipe, served by the site itself).
// Material's instant navigation swaps the page without reloading scripts, so the lightbox is
// rebuilt for every page that `document$` announces.
import PhotoSwipeLightbox from "./photoswipe/photoswipe-lightbox.esm.min.js";

let lightbox = null;

function captionOf(slide) {
  const figure = slide && slide.data.element && slide.data.element.closest("figure");
  const caption = figure && figure.querySelector("figcaption");
  return caption ? caption.innerHTML : "";
}

function setup() {
  if (lightbox) {
    lightbox.destroy();
    lightbox = null;
  }
  if (!document.querySelector("a.dz-figure-zoom")) return;
  lightbox = new PhotoSwipeLightbox({
    gallery: ".md-content",
    children: "a.dz-figure-zoom",
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
        el.className = "pswp__dz-caption";
        pswp.on("change", () => {
          el.innerHTML = captionOf(pswp.currSlide);
        });
      },
    });
  });
  lightbox.init();
}

if (window.document$) {
  window.document$.subscribe(setup);
} else {
  setup();
}
