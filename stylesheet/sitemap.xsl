<?xml version="1.0" encoding="UTF-8"?>
<!--
  The default stylesheet of feed2sitemap: it shows a sitemap (urlset) or a
  sitemap index in a browser as a table. Serve it from the same origin as
  the sitemap: browsers refuse a stylesheet from another origin. XSLT 1.0,
  with no external resource.
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"
    xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
    xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
    exclude-result-prefixes="s image video">

  <xsl:output method="html" encoding="UTF-8" indent="yes" doctype-system="about:legacy-compat"/>

  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="robots" content="noindex"/>
        <title>
          <xsl:choose>
            <xsl:when test="s:sitemapindex">Sitemap index</xsl:when>
            <xsl:otherwise>Sitemap</xsl:otherwise>
          </xsl:choose>
        </title>
        <style>
          :root { color-scheme: light dark; --line: #d0d7de; --muted: #57606a; --stripe: #f6f8fa; --link: #0550ae; }
          @media (prefers-color-scheme: dark) { :root { --line: #30363d; --muted: #9198a1; --stripe: #161b22; --link: #58a6ff; } }
          body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; }
          h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
          p.about { color: var(--muted); margin: 0 0 1.25rem; }
          table { border-collapse: collapse; width: 100%; }
          th, td { border-bottom: 1px solid var(--line); padding: .4rem .6rem; text-align: left; vertical-align: top; }
          th { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); white-space: nowrap; }
          tbody tr:nth-child(even) { background: var(--stripe); }
          td.loc { word-break: break-all; }
          td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
          td.date { white-space: nowrap; font-variant-numeric: tabular-nums; }
          a { color: var(--link); text-decoration: none; }
          a:hover { text-decoration: underline; }
          /* A phone: each row a block, the URL on its own line, the other
             cells after it, named by their column (data-label). */
          @media (max-width: 40rem) {
            body { margin: 1rem auto; padding: 0 .75rem; font-size: 14px; }
            thead { display: none; }
            table, tbody, tr, td { display: block; }
            tr { border-bottom: 1px solid var(--line); padding: .35rem 0; }
            td, td.num, td.date { border: 0; padding: .1rem .25rem; text-align: left; white-space: normal; }
            td.loc { word-break: break-word; overflow-wrap: anywhere; }
            td:not(.loc) { display: inline-block; color: var(--muted); font-size: .85rem; margin-right: .75rem; }
            td:first-child:not(.loc), td:not(.loc):empty { display: none; }
            td[data-label]:not(.loc)::before { content: attr(data-label) ": "; }
          }
        </style>
      </head>
      <body>
        <xsl:apply-templates select="s:urlset|s:sitemapindex"/>
        <xsl:if test="not(s:urlset|s:sitemapindex)">
          <h1>Not a sitemap</h1>
          <p class="about">This document is neither a urlset nor a sitemap index of the sitemaps.org 0.9 namespace.</p>
        </xsl:if>
      </body>
    </html>
  </xsl:template>

  <!-- A sitemap: one row per URL. The changefreq, priority, images and
       videos columns appear when at least one URL has them. -->
  <xsl:template match="s:urlset">
    <xsl:variable name="freq" select="boolean(s:url/s:changefreq)"/>
    <xsl:variable name="prio" select="boolean(s:url/s:priority)"/>
    <xsl:variable name="img" select="boolean(s:url/image:image)"/>
    <xsl:variable name="vid" select="boolean(s:url/video:video)"/>
    <h1>Sitemap</h1>
    <p class="about">
      This XML sitemap tells search engines about
      <strong id="count"><xsl:value-of select="count(s:url)"/></strong>
      <xsl:choose>
        <xsl:when test="count(s:url) = 1"> URL</xsl:when>
        <xsl:otherwise> URLs</xsl:otherwise>
      </xsl:choose>
      <xsl:if test="$img"> with <span id="images"><xsl:value-of select="count(s:url/image:image)"/></span> images</xsl:if>
      <xsl:if test="$vid"><xsl:choose><xsl:when test="$img"> and </xsl:when><xsl:otherwise> with </xsl:otherwise></xsl:choose><span id="videos"><xsl:value-of select="count(s:url/video:video)"/></span> videos</xsl:if>.
    </p>
    <table id="urls">
      <thead>
        <tr>
          <th class="num">#</th>
          <th>URL</th>
          <th>Last modified</th>
          <xsl:if test="$freq"><th>Change frequency</th></xsl:if>
          <xsl:if test="$prio"><th class="num">Priority</th></xsl:if>
          <xsl:if test="$img"><th class="num">Images</th></xsl:if>
          <xsl:if test="$vid"><th class="num">Videos</th></xsl:if>
        </tr>
      </thead>
      <tbody>
        <xsl:for-each select="s:url">
          <tr>
            <td class="num"><xsl:value-of select="position()"/></td>
            <td class="loc"><xsl:apply-templates select="s:loc"/></td>
            <td class="date" data-label="Last modified"><xsl:apply-templates select="s:lastmod"/></td>
            <xsl:if test="$freq"><td data-label="Change frequency"><xsl:value-of select="normalize-space(s:changefreq)"/></td></xsl:if>
            <xsl:if test="$prio"><td class="num" data-label="Priority"><xsl:value-of select="normalize-space(s:priority)"/></td></xsl:if>
            <xsl:if test="$img"><td class="num images" data-label="Images"><xsl:value-of select="count(image:image)"/></td></xsl:if>
            <xsl:if test="$vid"><td class="num videos" data-label="Videos"><xsl:value-of select="count(video:video)"/></td></xsl:if>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>

  <!-- A sitemap index: one row per child sitemap. -->
  <xsl:template match="s:sitemapindex">
    <h1>Sitemap index</h1>
    <p class="about">
      This sitemap index lists
      <strong id="count"><xsl:value-of select="count(s:sitemap)"/></strong>
      <xsl:choose>
        <xsl:when test="count(s:sitemap) = 1"> sitemap.</xsl:when>
        <xsl:otherwise> sitemaps.</xsl:otherwise>
      </xsl:choose>
    </p>
    <table id="sitemaps">
      <thead>
        <tr>
          <th class="num">#</th>
          <th>Sitemap</th>
          <th>Last modified</th>
        </tr>
      </thead>
      <tbody>
        <xsl:for-each select="s:sitemap">
          <tr>
            <td class="num"><xsl:value-of select="position()"/></td>
            <td class="loc"><xsl:apply-templates select="s:loc"/></td>
            <td class="date" data-label="Last modified"><xsl:apply-templates select="s:lastmod"/></td>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>

  <!-- A loc: a link when it is an http(s) URL, plain text otherwise. The
       link is the loc exactly; what it shows has its UTF-8 percent-escapes
       decoded for reading (/caf%C3%A9 as /café), where the XSLT is
       libxslt's (Chromium, Safari), which honours disable-output-escaping.
       Escapes of ASCII characters stay, and so do those of control,
       invisible and direction characters, which could disguise a URL. -->
  <xsl:template match="s:loc">
    <xsl:variable name="v" select="normalize-space(.)"/>
    <xsl:choose>
      <xsl:when test="starts-with($v, 'https://') or starts-with($v, 'http://')"><a href="{$v}"><xsl:call-template name="shown"><xsl:with-param name="s" select="$v"/></xsl:call-template></a></xsl:when>
      <xsl:otherwise><xsl:value-of select="$v"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="shown">
    <xsl:param name="s"/>
    <xsl:choose>
      <xsl:when test="contains($s, '%') and system-property('xsl:vendor') = 'libxslt'">
        <xsl:value-of select="substring-before($s, '%')"/>
        <xsl:variable name="r" select="translate(concat('%', substring-after($s, '%')), 'abcdef', 'ABCDEF')"/>
        <xsl:variable name="b1"><xsl:call-template name="byte"><xsl:with-param name="h" select="substring($r, 2, 2)"/></xsl:call-template></xsl:variable>
        <xsl:variable name="b2"><xsl:call-template name="byte"><xsl:with-param name="h" select="substring($r, 4, 3)"/></xsl:call-template></xsl:variable>
        <xsl:variable name="b3"><xsl:call-template name="byte"><xsl:with-param name="h" select="substring($r, 7, 3)"/></xsl:call-template></xsl:variable>
        <xsl:variable name="b4"><xsl:call-template name="byte"><xsl:with-param name="h" select="substring($r, 10, 3)"/></xsl:call-template></xsl:variable>
        <xsl:variable name="n">
          <xsl:choose>
            <xsl:when test="$b1 &gt;= 194 and $b1 &lt;= 223 and $b2 &gt;= 128 and $b2 &lt;= 191">2</xsl:when>
            <xsl:when test="$b1 &gt;= 224 and $b1 &lt;= 239 and $b2 &gt;= 128 and $b2 &lt;= 191 and $b3 &gt;= 128 and $b3 &lt;= 191">3</xsl:when>
            <xsl:when test="$b1 &gt;= 240 and $b1 &lt;= 244 and $b2 &gt;= 128 and $b2 &lt;= 191 and $b3 &gt;= 128 and $b3 &lt;= 191 and $b4 &gt;= 128 and $b4 &lt;= 191">4</xsl:when>
            <xsl:otherwise>0</xsl:otherwise>
          </xsl:choose>
        </xsl:variable>
        <xsl:variable name="cp">
          <xsl:choose>
            <xsl:when test="$n = 2"><xsl:value-of select="($b1 - 192) * 64 + $b2 - 128"/></xsl:when>
            <xsl:when test="$n = 3"><xsl:value-of select="($b1 - 224) * 4096 + ($b2 - 128) * 64 + $b3 - 128"/></xsl:when>
            <xsl:when test="$n = 4"><xsl:value-of select="($b1 - 240) * 262144 + ($b2 - 128) * 4096 + ($b3 - 128) * 64 + $b4 - 128"/></xsl:when>
            <xsl:otherwise>0</xsl:otherwise>
          </xsl:choose>
        </xsl:variable>
        <xsl:choose>
          <xsl:when test="$cp &gt;= 160 and not($n = 3 and $cp &lt; 2048) and not($n = 4 and ($cp &lt; 65536 or $cp &gt; 1114111))
              and not($cp = 173 or $cp &gt;= 8203 and $cp &lt;= 8207 or $cp &gt;= 8232 and $cp &lt;= 8238 or $cp &gt;= 8288 and $cp &lt;= 8303
              or $cp &gt;= 55296 and $cp &lt;= 57343 or $cp = 65279 or $cp &gt;= 65529 and $cp &lt;= 65535)">
            <xsl:value-of select="concat('&amp;#', $cp, ';')" disable-output-escaping="yes"/>
            <xsl:call-template name="shown"><xsl:with-param name="s" select="substring(concat('%', substring-after($s, '%')), 3 * $n + 1)"/></xsl:call-template>
          </xsl:when>
          <xsl:otherwise>
            <xsl:text>%</xsl:text>
            <xsl:call-template name="shown"><xsl:with-param name="s" select="substring-after($s, '%')"/></xsl:call-template>
          </xsl:otherwise>
        </xsl:choose>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$s"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- The value of two hex digits h (after a '%' when h has three
       characters), or -1. -->
  <xsl:template name="byte">
    <xsl:param name="h"/>
    <xsl:variable name="d" select="substring($h, string-length($h) - 1)"/>
    <xsl:variable name="x" select="'0123456789ABCDEF'"/>
    <xsl:choose>
      <xsl:when test="(string-length($h) = 2 or starts-with($h, '%')) and string-length($d) = 2 and contains($x, substring($d, 1, 1)) and contains($x, substring($d, 2, 1))">
        <xsl:value-of select="string-length(substring-before($x, substring($d, 1, 1))) * 16 + string-length(substring-before($x, substring($d, 2, 1)))"/>
      </xsl:when>
      <xsl:otherwise>-1</xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- A lastmod: a date as it is, a date-time with a space for the T. -->
  <xsl:template match="s:lastmod">
    <xsl:variable name="v" select="normalize-space(.)"/>
    <time datetime="{$v}">
      <xsl:choose>
        <xsl:when test="contains($v, 'T')"><xsl:value-of select="concat(substring-before($v, 'T'), ' ', substring-after($v, 'T'))"/></xsl:when>
        <xsl:otherwise><xsl:value-of select="$v"/></xsl:otherwise>
      </xsl:choose>
    </time>
  </xsl:template>
</xsl:stylesheet>
