"""What readers get from the glossary: term tooltips, the 术语表 page, search words."""
