#!/usr/bin/env bash
# Renders the gallery's media and thumbnails (apps/web/public/assets). Everything is generated
# here from ImageMagick and ffmpeg's procedural sources, so the files are the repository's own.
# Needs Debian's imagemagick, webp and ffmpeg. Rerunning replaces the files (the seeds are fixed,
# the output is close to but not byte-identical across tool versions).
set -euo pipefail
cd "$(dirname "$0")/../public/assets"
IM=/usr/bin/convert
G=gallery
mkdir -p "$G"

# A 960x540 picture with a caption band, saved as WebP.
picture() { # out, caption, ImageMagick source args...
  local out=$1 caption=$2
  shift 2
  "$IM" -size 960x540 -seed 7 "$@" -resize '960x540!' \
    -fill 'rgba(0,0,0,0.45)' -draw 'rectangle 0,470 960,540' \
    -fill white -pointsize 30 -gravity southwest -annotate +24+20 "$caption" \
    -quality 62 "$G/$out.webp"
}
# A 320x180 thumbnail of a picture or a new drawing.
thumb() { # out, ImageMagick source args...
  local out=$1
  shift
  "$IM" "$@" -resize '320x180^' -gravity center -extent 320x180 -quality 60 "$G/$out.webp"
}

picture vfx-plasma 'Plasma shader study' plasma:indigo-orange -blur 0x2
picture vfx-nebula 'Nebula particles' plasma:black-purple -swirl 160 -modulate 110,140
picture vfx-shockwave 'Shockwave ring' radial-gradient:white-navy -wave 18x90 -colorize 10,0,30
picture vfx-embers 'Ember field' plasma:darkred-gold -spread 6 -blur 0x1
picture vfx-frost 'Frost crystals' plasma:white-steelblue -implode -0.6 -sharpen 0x2
picture proto-lobby 'Online lobby prototype' gradient:'#1e2a4a-#4b3fd8' \
  -fill '#f5a623' -draw 'roundrectangle 120,110 840,180 14,14' \
  -fill '#e8eaf4' -draw 'roundrectangle 120,210 840,260 10,10' \
  -draw 'roundrectangle 120,280 840,330 10,10' -draw 'roundrectangle 120,350 840,400 10,10'
picture proto-arena 'Arena blockout' gradient:'#2d5a3d-#9fc27a' \
  -fill '#6b4f2a' -draw 'rectangle 180,140 300,420' -draw 'rectangle 660,140 780,420' \
  -fill '#f5f0e1' -draw 'circle 480,280 480,360' -fill '#b42318' -draw 'circle 420,250 420,265' \
  -fill '#1d4ed8' -draw 'circle 540,310 540,325'

thumb visuals-card "$G/vfx-nebula.webp"
thumb prototype-card "$G/proto-lobby.webp"
thumb projectx-card -size 960x540 -seed 11 plasma:teal-black -swirl 90 \
  -fill white -pointsize 64 -gravity center -annotate +0+0 'ProjectX'
for n in 1 2 3 4 5 6; do
  thumb "projectx-trailer-$n" -size 320x180 -seed "$n" plasma:navy-crimson \
    -fill 'rgba(255,255,255,0.85)' -draw 'polygon 140,60 140,120 192,90' \
    -fill white -pointsize 20 -gravity southwest -annotate +10+8 "Part $n"
done

# Default thumbnails for media without their own (named by the spec, JPEG).
"$IM" -size 320x180 gradient:'#161a2b-#4b3fd8' -fill 'rgba(255,255,255,0.9)' \
  -draw 'polygon 138,58 138,122 194,90' -quality 70 default_video_thumbnail.jpg
"$IM" -size 320x180 gradient:'#161a2b-#1d7a3a' -fill 'rgba(255,255,255,0.9)' \
  -draw 'rectangle 120,70 132,110' -draw 'polygon 132,70 190,54 190,94 132,110' \
  -draw 'circle 118,112 118,124' -draw 'circle 176,96 176,108' -quality 70 default_audio_thumbnail.jpg

# Short silent H.264 clips from ffmpeg's procedural sources.
clip() { # out, lavfi source
  ffmpeg -loglevel error -y -f lavfi -i "$2" -t 4 -an -c:v libx264 -preset slow -crf 33 \
    -pix_fmt yuv420p -movflags +faststart "$G/$1.mp4"
}
clip vfx-reel 'mandelbrot=size=480x270:rate=20:start_scale=2.5:end_scale=0.05:end_pts=80'
clip prototype-playtest 'life=size=160x90:rate=8:mold=20:ratio=0.2:death_color=#1e2a4a:life_color=#f5a623,scale=640:360:flags=neighbor'
clip projectx-devlog 'cellauto=size=640x360:rate=24:rule=110,negate,colorchannelmixer=.3:.4:.3:0:.2:.5:.3:0:.6:.2:.2'
