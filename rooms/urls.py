from django.urls import path

from . import views

app_name = "rooms"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("quick/", views.quick_join, name="quick_join"),
    path("r/<room_code:code>/", views.room, name="room"),
    path("r/<room_code:code>/join/", views.join, name="join"),
    path("r/<room_code:code>/seat/", views.seat, name="seat"),
    path("r/<room_code:code>/leave/", views.leave, name="leave"),
    path("r/<room_code:code>/remove/", views.remove, name="remove"),
    path("r/<room_code:code>/bots/", views.bots, name="bots"),
    path("r/<room_code:code>/close/", views.close, name="close"),
    path("r/<room_code:code>/invite/", views.invite, name="invite"),
    path("invitations/<int:invitation_id>/join/", views.invitation_accept, name="invitation_accept"),
    path("invitations/<int:invitation_id>/dismiss/", views.invitation_dismiss, name="invitation_dismiss"),
    path("notices/seen/", views.notices_seen, name="notices_seen"),
    path("r/<room_code:code>/options/", views.options_save, name="options"),
    path("r/<room_code:code>/options/open/", views.options_open, name="options_open"),
    path("r/<room_code:code>/options/close/", views.options_close, name="options_close"),
    path("r/<room_code:code>/chat/", views.chat_say, name="chat_say"),
    path("r/<room_code:code>/chat/<int:line_id>/report/", views.chat_report, name="chat_report"),
    path("r/<room_code:code>/chat/switch/", views.chat_switch, name="chat_switch"),
    path("r/<room_code:code>/chat/mute/<int:user_id>/", views.chat_mute, name="chat_mute"),
    path("chat/match/<public_id:public_id>/", views.match_chat, name="match_chat"),
    path("annul/<public_id:public_id>/", views.match_annul, name="match_annul"),
    path("annul/<public_id:public_id>/propose/", views.annul_propose, name="annul_propose"),
    path("annul/<public_id:public_id>/yes/", views.annul_yes, name="annul_yes"),
    path("annul/<public_id:public_id>/no/", views.annul_no, name="annul_no"),
    # After a room's match (by the match's id: the table knows it, not the room).
    path("again/<public_id:public_id>/", views.again, name="again"),
    path("again/<public_id:public_id>/yes/", views.again_accept, name="again_accept"),
    path("again/<public_id:public_id>/no/", views.again_decline, name="again_decline"),
]
